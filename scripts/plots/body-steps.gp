# Time per step by stage and the number of particles against the step (the founding paper's
# Figure 8 for the discoid), from vortex-body's diagnostics.csv, with the exponent b of
# time per step ~ N^b fitted over the second half of the steps. Callers set `csv` and `outfile`.
set terminal pngcairo size 1000,620 enhanced font "DejaVu Sans,12" linewidth 1.5
set output outfile
set datafile separator ","
set grid
set key below horizontal
stats csv using 1 nooutput
last = STATS_max
half = int(last / 2)
f(x) = a + b * x
a = 1; b = 1
set fit quiet logfile "/dev/null"
if (last - half >= 3) {
  fit f(x) csv using ($1 > half ? log($4) : NaN):(log($27)) via a, b
  set title sprintf("Time per step by stage, and N (time per step ∝ N^{%.2f} over the last %d steps)", b, last - half)
} else {
  set title "Time per step by stage, and N"
}
set xlabel "step"
set ylabel "seconds per step"
set y2label "particles N"
set ytics nomirror
set y2tics
set format y2 "%.1s%c"
set yrange [0:*]
set y2range [0:*]
plot csv using 1:27 every ::1 with lines lw 2 lc rgb "#333333" title "whole step", \
     csv using 1:32 every ::1 with lines lc rgb "#e15759" title "VRM", \
     csv using 1:($30 - $32) every ::1 with lines lc rgb "#f28e2b" title "shedding, wall, control", \
     csv using 1:29 every ::1 with lines lc rgb "#4e79a7" title "convection (two evaluations)", \
     csv using 1:28 every ::1 with lines lc rgb "#59a14f" title "boundary elements", \
     csv using 1:31 every ::1 with lines dt 3 lc rgb "#59a14f" title "of which near-wall", \
     csv using 1:4 every ::1 axes x1y2 with lines dt 2 lc rgb "#76b7b2" title "N (right axis)"
