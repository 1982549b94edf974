# sweep-order-theta.csv -> order-theta.png: mean velocity error against time for every multipole
# order p and acceptance theta, the Pareto front (no point both faster and more accurate), and the
# paper's error target.
W = 1200; H = 780
load plots."/common.gp"
f = dir."/sweep-order-theta.csv"
front = dir."/sweep-order-theta-pareto.csv"  # sorted by time
label_text(d) = sprintf("p%d θ%.2g", column("order"), column("theta"))
set output out."/order-theta.png"

stats f using (column("order")) nooutput
p_min = STATS_min
p_max = STATS_max
stats f using (column("n")) nooutput
set title sprintf("Error against time, N = %d: multipole order p and acceptance θ\n(color: p; the Pareto front is labelled with p and θ)", STATS_max)
set xlabel "time per evaluation [s]"
set ylabel "mean relative velocity error"
set logscale xy
set format y "10^{%L}"
set format x "%g"
eval "set xtics ".tics125
set grid xtics ytics mxtics mytics lc rgb "#e4e4e4"
set key top right
set palette defined (0 "#2c7bb6", 0.33 "#abd9e9", 0.5 "#ffd54f", 0.75 "#fdae61", 1 "#d7191c")
set cbrange [p_min - 0.5 : p_max + 0.5]
set cbtics 1
set cblabel "multipole order p"
set palette maxcolors (p_max - p_min + 1)
stats f using (column("total")):(column("u_mean_rel")) nooutput
set xrange [STATS_min_x / 1.3 : STATS_max_x * 1.8]
set yrange [STATS_min_y / 2.5 : STATS_max_y * 2.5]
set arrow from graph 0, first 2e-4 to graph 1, first 2e-4 nohead lc rgb "#777777" dt 3 lw 1.5
plot NaN with lines lc rgb "#777777" dt 3 lw 1.5 title "paper's error target, 2·10^{-4}", \
     f using "total":"u_mean_rel":"order" with points pt 7 ps 1.5 lc palette \
       title "one (p, θ) run", \
     front using "total":"u_mean_rel" with linespoints lc rgb "black" lw 1.5 pt 6 ps 2.2 \
       title "Pareto front", \
     front using "total":"u_mean_rel":(int($0) % 2 ? label_text(0) : "") \
       with labels left offset 1.3,0.4 font ",9" notitle, \
     front using "total":"u_mean_rel":(int($0) % 2 ? "" : label_text(0)) \
       with labels right offset -1.3,-0.4 font ",9" notitle
