# The discoid's resolution series: C_D (left) and C_L (right) against t for the time steps
# 0.04, 0.02, 0.01 at 46,080 panels (top) and for 20,480, 46,080, 81,920 panels at dt = 0.02
# (bottom), from vortex-body's diagnostics.csv files (the first step, the impulsive start's
# average, left off). Callers set dt04, dt02, dt01, f32, f48, f64 (CSV paths) and outfile.
set terminal pngcairo size 1300,900 enhanced font "DejaVu Sans,12" linewidth 1.5
set output outfile
set datafile separator ","
set grid
set key top right
set xlabel "t U / D"
set multiplot layout 2,2 title "Discoid at 60°, Re = 1000: resolution series"
set yrange [0.8:2.6]
set ylabel "C_D"
set title "time step (46,080 panels; h = (8 dt / Re)^{1/2})"
plot dt04 using 2:8 every ::2 with lines lc rgb "#bab0ac" title "dt = 0.04", \
     dt02 using 2:8 every ::2 with lines lc rgb "#4e79a7" title "dt = 0.02", \
     dt01 using 2:8 every ::2 with lines lw 1.5 lc rgb "#e15759" title "dt = 0.01"
set yrange [0:2]
set ylabel "C_L"
plot dt04 using 2:9 every ::2 with lines lc rgb "#bab0ac" title "dt = 0.04", \
     dt02 using 2:9 every ::2 with lines lc rgb "#4e79a7" title "dt = 0.02", \
     dt01 using 2:9 every ::2 with lines lw 1.5 lc rgb "#e15759" title "dt = 0.01"
set yrange [0.8:2.6]
set ylabel "C_D"
set title "panels (dt = 0.02)"
plot f32 using 2:8 every ::2 with lines lc rgb "#bab0ac" title "20,480", \
     f48 using 2:8 every ::2 with lines lc rgb "#4e79a7" title "46,080", \
     f64 using 2:8 every ::2 with lines lw 1.5 lc rgb "#e15759" title "81,920"
set yrange [0:2]
set ylabel "C_L"
plot f32 using 2:9 every ::2 with lines lc rgb "#bab0ac" title "20,480", \
     f48 using 2:9 every ::2 with lines lc rgb "#4e79a7" title "46,080", \
     f64 using 2:9 every ::2 with lines lw 1.5 lc rgb "#e15759" title "81,920"
unset multiplot
