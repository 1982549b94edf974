# The discoid at two incidences from vortex-body's diagnostics.csv files: C_D and C_L (top) and the
# total vorticity of particles and sheet (bottom) against t (the first step, the impulsive start's
# average, left off). Callers set `a`, `b` (CSV files), `a_title`, `b_title` and `outfile`.
set terminal pngcairo size 1000,900 enhanced font "DejaVu Sans,12" linewidth 1.5
set output outfile
set datafile separator ","
set multiplot layout 2,1
set grid
set key below horizontal
set xlabel "t U / D"
set ylabel "force coefficient"
set yrange [-0.2:3]
set title "Discoid, Re = 1000: C_D and C_L"
plot a using 2:8 every ::2 with lines lc rgb "#4e79a7" title "C_D, ".a_title, \
     a using 2:9 every ::2 with lines lc rgb "#e15759" title "C_L, ".a_title, \
     b using 2:8 every ::2 with lines lw 2 lc rgb "#59a14f" title "C_D, ".b_title, \
     b using 2:9 every ::2 with lines lw 2 lc rgb "#f28e2b" title "C_L, ".b_title
set ylabel "total vorticity"
set yrange [*:*]
set title "Particles and sheet: Ω_x, Ω_y, Ω_z (zero in the exact flow)"
plot a using 2:13 every ::2 with lines dt 2 lc rgb "#4e79a7" title "Ω_x, ".a_title, \
     a using 2:14 every ::2 with lines lc rgb "#4e79a7" title "Ω_y, ".a_title, \
     a using 2:15 every ::2 with lines dt 3 lc rgb "#4e79a7" title "Ω_z, ".a_title, \
     b using 2:13 every ::2 with lines dt 2 lw 2 lc rgb "#59a14f" title "Ω_x, ".b_title, \
     b using 2:14 every ::2 with lines lw 2 lc rgb "#59a14f" title "Ω_y, ".b_title, \
     b using 2:15 every ::2 with lines dt 3 lw 2 lc rgb "#59a14f" title "Ω_z, ".b_title
unset multiplot
