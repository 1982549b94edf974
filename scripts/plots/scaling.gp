# sweep-scaling.csv -> scaling.png: time against N on log-log axes, the treecode's stages, the
# direct sum, and the growth exponents fitted by least squares on log t against log N.
W = 1150; H = 760
load plots."/common.gp"
f = dir."/sweep-scaling.csv"
set output out."/scaling.png"

stats f using (log(column("n"))):(log(column("total"))) nooutput
tree_exp = STATS_slope
tree_pre = exp(STATS_intercept)
stats f using (log(column("n"))):(log(column("direct_total"))) nooutput
direct_exp = STATS_slope
direct_pre = exp(STATS_intercept)
stats f using (column("n")) nooutput
n_min = STATS_min
n_max = STATS_max

set title sprintf("Time against N (cube case): treecode t ∝ N^{%.2f}, direct sum t ∝ N^{%.2f}\n(the paper's treecode grew as N^{1.17} to N^{1.24})", \
                  tree_exp, direct_exp)
set xlabel "number of particles N"
set ylabel "time per evaluation [s]"
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xrange [n_min / 1.5 : n_max * 1.5]
set grid xtics ytics mxtics mytics lc rgb "#e4e4e4"
set key top left
set samples 100
plot tree_pre * x**tree_exp with lines lc rgb c_tree dt 2 \
       title sprintf("treecode fit: %.3g N^{%.2f}", tree_pre, tree_exp), \
     direct_pre * x**direct_exp with lines lc rgb c_near dt 2 \
       title sprintf("direct fit: %.3g N^{%.2f}", direct_pre, direct_exp), \
     f using "n":"total" with linespoints pt 7 ps 1.4 lc rgb c_tree title "treecode, total", \
     '' using "n":"near" with linespoints pt 4 lc rgb "#c06060" title "treecode, near field", \
     '' using "n":"far" with linespoints pt 6 lc rgb c_far title "treecode, far field", \
     '' using "n":(column("tree") + column("multipole") + column("lists")) with linespoints \
       pt 8 lc rgb c_multipole title "treecode, tree + multipoles + lists", \
     '' using "n":(column("direct_extrapolated") > 0 ? NaN : column("direct_total")) \
       with points pt 5 ps 1.4 lc rgb c_near title "direct sum, measured", \
     '' using "n":(column("direct_extrapolated") > 0 ? column("direct_total") : NaN) \
       with points pt 4 ps 1.4 lc rgb c_near title "direct sum, extrapolated from sampled targets"
