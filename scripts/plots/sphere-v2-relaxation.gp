# V2 at h = 0.080 with and without the relaxation of the strengths: C_D (left axis) with the steady
# drag 1.087 and its 5 % band, C_L and the streamwise total vorticity of particles and sheet
# (right axis). Callers set `plain`, `relaxed` (relaxation 0.3), `relaxed01` (0.1; vortex-body
# diagnostics.csv files) and `outfile`.
set terminal pngcairo size 1000,620 enhanced font "DejaVu Sans,12" linewidth 1.5
set output outfile
set datafile separator ","
set grid
set key below horizontal
set xlabel "t U / D"
set ylabel "C_D"
set y2label "C_L, total vorticity along the stream"
set ytics nomirror
set y2tics
set yrange [0.9:1.5]
set y2range [-0.4:1.2]
set title "Sphere, Re = 100, h = 0.080: classical stretching without and with relaxation"
set object 1 rect from graph 0, first 1.087 * 0.95 to graph 1, first 1.087 * 1.05 behind fc rgb "#eeeeee" fs solid noborder
plot 1.087 with lines dt 2 lc rgb "#333333" title "1.087 ± 5 %", \
     plain using 2:8 every ::2 with lines lc rgb "#bab0ac" title "C_D, no relaxation", \
     relaxed using 2:8 every ::2 with lines lc rgb "#4e79a7" title "C_D, relaxation 0.3", \
     relaxed01 using 2:8 every ::2 with lines lc rgb "#f28e2b" title "C_D, relaxation 0.1", \
     plain using 2:9 every ::2 axes x1y2 with lines dt 3 lc rgb "#bab0ac" title "C_L, no relaxation", \
     relaxed using 2:9 every ::2 axes x1y2 with lines dt 3 lc rgb "#4e79a7" title "C_L, relaxation 0.3", \
     plain using 2:13 every ::2 axes x1y2 with lines dt 4 lc rgb "#e15759" title "Σ ω_x, no relaxation", \
     relaxed using 2:13 every ::2 axes x1y2 with lines dt 4 lc rgb "#59a14f" title "Σ ω_x, relaxation 0.3"
