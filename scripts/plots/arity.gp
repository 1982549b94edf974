# sweep-arity.csv -> arity.png: the stages of the treecode for 2-, 4- and 8-way trees, stacked in
# seconds, with the total and the mean velocity error above each bar.
W = 1100; H = 650
load plots."/common.gp"
f = dir."/sweep-arity.csv"
set output out."/arity.png"

stats f using (column("n")) nooutput
n = STATS_max
stats f using (column("total")) nooutput
t_max = STATS_max
stagesum(d) = column("tree") + column("multipole") + column("lists") + column("near") \
              + column("far") + column("transfer")
set title sprintf("Tree arity: time per stage (N = %d; other tree options at their defaults)", n)
set ylabel "time per evaluation [s]"
set xlabel "children per tree node"
set yrange [0 : t_max * 1.3]
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.55
set key outside right top vertical
plot f using "tree":xtic(sprintf("%d-way", column("arity"))) lc rgb c_tree title "tree build", \
     '' using "multipole" lc rgb c_multipole title "multipoles (P2M, M2M)", \
     '' using "lists" lc rgb c_lists title "interaction lists", \
     '' using "near" lc rgb c_near title "near field (direct pairs)", \
     '' using "far" lc rgb c_far title "far field (multipoles)", \
     '' using "transfer" lc rgb c_transfer title "host-device transfer", \
     '' using (column("total") > stagesum(0) ? column("total") - stagesum(0) : 0) \
       lc rgb c_other title "other", \
     '' using ($0):(stagesum(0) > column("total") ? stagesum(0) : column("total")): \
       (sprintf("%s\nu err %.1e", secs(column("total")), column("u_mean_rel"))) \
       with labels offset 0,1.6 font ",10" notitle
