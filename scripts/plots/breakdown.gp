# report.csv -> breakdown.png: total time per method (this machine next to the paper's Figure 7)
# and the share of each stage (the paper's Figures 4 and 6).
load plots."/common.gp"
f = dir."/report.csv"
set output out."/breakdown.png"

stats f using (column("total")) nooutput
rows = STATS_records
stats f using (column("n")) nooutput
title_n = sprintf("N = %d", STATS_max)
set multiplot layout 1,2 title "vortex-bench report: runtime by method (".title_n.")" font ",15"

# Left: total time, log scale, this machine against the paper.
set title "Total time per method (log scale)"
set ylabel "time per evaluation [s]"
set logscale y
set format y "10^{%L}"
set xrange [-0.6:rows-0.4]
stats f using (column("total") > column("paper_total") ? column("total") : column("paper_total")) nooutput
y_top = STATS_max * 8
stats f using (column("total")) nooutput
set yrange [STATS_min / 5 : y_top]
set boxwidth 0.38
set style fill solid 0.85 border -1
set xtics rotate by -20 nomirror
set key top right
set offsets 0, 0, graph 0.12, 0
plot f using ($0-0.2):(column("total")):xtic(strcol("label")) with boxes lc rgb "#2f5d8a" \
       title "this machine (".title_n.")", \
     '' using ($0+0.2):(column("paper_total")) with boxes lc rgb "#999999" \
       title "paper, Figure 7 (N = 500,000, 2008)", \
     '' using ($0-0.2):(column("total")):(secs(column("total")).(column("extrapolated") > 0 ? "*" : "")) \
       with labels offset 0,0.8 font ",10" notitle, \
     '' using ($0+0.2):(column("paper_total")):(secs(column("paper_total"))) \
       with labels offset 0,0.8 font ",10" tc rgb "#555555" notitle

# Right: share of each stage, stacked to 100 %.
unset logscale y
set format y "%g"
set offsets 0, 0, 0, 0
set title "Where the time goes (share of the stages' sum; * = extrapolated)"
set ylabel "share of time [%]"
set yrange [0:112]
set ytics 0, 20, 100
set style data histograms
set style histogram rowstacked
set boxwidth 0.6
set key outside right top vertical
stagesum(d) = column("tree") + column("multipole") + column("lists") + column("near") \
              + column("far") + column("transfer")
whole(d) = stagesum(d) > column("total") ? stagesum(d) : column("total")
share(name) = 100 * column(name) / whole(0)
other(d) = 100 * (whole(0) - stagesum(0)) / whole(0)
plot f using (share("tree")):xtic(strcol("label")) lc rgb c_tree title "tree build", \
     '' using (share("multipole")) lc rgb c_multipole title "multipoles (P2M, M2M)", \
     '' using (share("lists")) lc rgb c_lists title "interaction lists", \
     '' using (share("near")) lc rgb c_near title "near field (direct pairs)", \
     '' using (share("far")) lc rgb c_far title "far field (multipoles)", \
     '' using (share("transfer")) lc rgb c_transfer title "host-device transfer", \
     '' using (other(0)) lc rgb c_other title "other", \
     '' using ($0):(100):(secs(column("total")).(column("extrapolated") > 0 ? "*" : "")) \
       with labels offset 0,0.9 font ",10" notitle
unset multiplot
