# C_D and C_L of two runs of the discoid against t, from vortex-body's diagnostics.csv files (the
# first step, the impulsive start's average, left off the range). Callers set `before`, `after`,
# `before_title`, `after_title` and `outfile`.
set terminal pngcairo size 1000,620 enhanced font "DejaVu Sans,12" linewidth 1.5
set output outfile
set datafile separator ","
set grid
set key below horizontal
set xlabel "t U / D"
set ylabel "force coefficient"
set yrange [0:3]
set title "Discoid at 60°, Re = 1000: C_D and C_L"
plot before using 2:8 every ::2 with lines lc rgb "#bab0ac" title "C_D, ".before_title, \
     before using 2:9 every ::2 with lines lc rgb "#f28e2b" title "C_L, ".before_title, \
     after using 2:8 every ::2 with lines lw 2 lc rgb "#4e79a7" title "C_D, ".after_title, \
     after using 2:9 every ::2 with lines lw 2 lc rgb "#e15759" title "C_L, ".after_title
