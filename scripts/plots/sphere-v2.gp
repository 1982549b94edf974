# V2: the sphere at Re = 100 started impulsively, C_D against t at three resolutions, with the
# steady drag 1.087 (Clift, Grace and Weber) and its 5 % band; C_L beside it. Callers set
# `coarse`, `middle`, `fine` (vortex-body diagnostics.csv files) and `outfile`.
set terminal pngcairo size 1000,620 enhanced font "DejaVu Sans,12" linewidth 1.5
set output outfile
set datafile separator ","
set grid
set key below horizontal
set xlabel "t U / D"
set ylabel "C_D"
set y2label "C_L"
set ytics nomirror
set y2tics
set yrange [0.9:1.5]
set y2range [-0.3:0.3]
set title "Sphere, Re = 100: C_D to the steady state at three resolutions"
set object 1 rect from graph 0, first 1.087 * 0.95 to graph 1, first 1.087 * 1.05 behind fc rgb "#eeeeee" fs solid noborder
plot 1.087 with lines dt 2 lc rgb "#333333" title "1.087 ± 5 %", \
     coarse using 2:8 every ::2 with lines lc rgb "#bab0ac" title "h = 0.080 (f 8, Δt 0.08)", \
     middle using 2:8 every ::2 with lines lc rgb "#f28e2b" title "h = 0.057 (f 10, Δt 0.04)", \
     fine using 2:8 every ::2 with lines lw 2 lc rgb "#4e79a7" title "h = 0.049 (f 12, Δt 0.03)", \
     coarse using 2:9 every ::2 axes x1y2 with lines dt 3 lc rgb "#bab0ac" notitle, \
     middle using 2:9 every ::2 axes x1y2 with lines dt 3 lc rgb "#f28e2b" notitle, \
     fine using 2:9 every ::2 axes x1y2 with lines dt 3 lc rgb "#4e79a7" title "C_L (dotted, right axis)"
