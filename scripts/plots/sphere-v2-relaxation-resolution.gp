# V2's resolution study with the strengths relaxed at one rate, 1.25 per unit time (the fraction
# per step 1.25 dt): C_D at three resolutions with the steady drag 1.087 and its 5 % band (left
# axis), C_L (right axis). Callers set `f8`, `f10`, `f12` (vortex-body diagnostics.csv files of
# h = 0.080, 0.057, 0.049) and `outfile`.
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
set y2range [-0.1:0.5]
set title "Sphere, Re = 100, relaxation 1.25 per unit time: three resolutions"
set object 1 rect from graph 0, first 1.087 * 0.95 to graph 1, first 1.087 * 1.05 behind fc rgb "#eeeeee" fs solid noborder
plot 1.087 with lines dt 2 lc rgb "#333333" title "1.087 ± 5 %", \
     f8 using 2:8 every ::2 with lines lc rgb "#bab0ac" title "C_D, h = 0.080", \
     f10 using 2:8 every ::2 with lines lc rgb "#4e79a7" title "C_D, h = 0.057", \
     f12 using 2:8 every ::2 with lines lc rgb "#f28e2b" title "C_D, h = 0.049", \
     f8 using 2:9 every ::2 axes x1y2 with lines dt 3 lc rgb "#bab0ac" title "C_L, h = 0.080", \
     f10 using 2:9 every ::2 axes x1y2 with lines dt 3 lc rgb "#4e79a7" title "C_L, h = 0.057", \
     f12 using 2:9 every ::2 axes x1y2 with lines dt 3 lc rgb "#f28e2b" title "C_L, h = 0.049"
