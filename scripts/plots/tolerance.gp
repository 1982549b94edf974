# sweep-tolerance.csv -> tolerance.png: time against the measured mean error (the larger of the
# velocity's and the gradient's) of the Solver asked for each tolerance, one line per case, with
# each tolerance drawn as a vertical line: a point meets its tolerance when it lies left of it.
W = 1200; H = 780
load plots."/common.gp"
f = dir."/sweep-tolerance.csv"
set output out."/tolerance.png"

err(d) = column("du_mean_rel") > column("u_mean_rel") ? column("du_mean_rel") : column("u_mean_rel")
of_case(name, v) = strcol("case") eq name ? v : NaN
stats f using (column("n")) nooutput
n = STATS_max
stats f using (column("tolerance")) nooutput
records = STATS_records
# The tolerances, read before any range is set (stats skips points outside the ranges).
tolerances = ""
do for [i = 0:records - 1] {
  stats f every ::i::i using (column("tolerance")) nooutput
  tolerances = tolerances.sprintf(" %.17g", STATS_min)
}
set title sprintf("Asked tolerance against measured error and time, N = %d\n(error: the larger of the mean relative velocity and gradient errors; label: p, θ, precision)", n)
set xlabel "measured mean relative error"
set ylabel "time per evaluation [s]"
set logscale xy
set format x "10^{%L}"
set format y "%g"
eval "set ytics ".tics125
set grid xtics ytics mxtics mytics lc rgb "#e4e4e4"
set key bottom right
stats f using (err(0)):(column("total")) nooutput
set xrange [STATS_min_x / 4 : STATS_max_x * 20]
set yrange [STATS_min_y / 1.5 : STATS_max_y * 1.5]
do for [t in tolerances] {
  set arrow from first t + 0, graph 0 to first t + 0, graph 1 nohead lc rgb "#777777" dt 3 lw 1.5
  set label sprintf("T = %g", t + 0) at first t + 0, graph 0.98 right rotate by 90 offset -0.6,0 font ",10" textcolor rgb "#555555"
}
label_text(d) = sprintf("p%d θ%.3g %s", column("order"), column("theta"), strcol("precision"))
plot NaN with lines lc rgb "#777777" dt 3 lw 1.5 title "asked tolerance T", \
     f using (of_case("cube", err(0))):"total" with linespoints pt 7 ps 1.4 lc rgb "#4e79a7" title "cube", \
     f using (of_case("plummer", err(0))):"total" with linespoints pt 5 ps 1.4 lc rgb "#e15759" title "Plummer", \
     f using (of_case("sheet", err(0))):"total" with linespoints pt 9 ps 1.6 lc rgb "#59a14f" title "thin sheet", \
     f using (err(0)):"total":(label_text(0)) with labels left offset 1,0.3 font ",8" notitle
