# sweep-bucket.csv -> bucket.png: near-field, far-field and set-up time against the bucket size,
# varying the target bucket, the source bucket, and both (the shift of the paper's Figure 5).
W = 1600; H = 600
load plots."/common.gp"
f = dir."/sweep-bucket.csv"
set output out."/bucket.png"

stats f using (column("n")) nooutput
n = STATS_max
stats f using (column("total")) nooutput
t_max = STATS_max
stats f using (column("target_bucket") < column("source_bucket") ? column("target_bucket") : column("source_bucket")) nooutput
b_min = STATS_min
stats f using (column("target_bucket") > column("source_bucket") ? column("target_bucket") : column("source_bucket")) nooutput
b_max = STATS_max

set multiplot layout 1,3 title sprintf("Bucket size N_b: near field against far field (N = %d; other tree options at their defaults)", n) font ",15"
set logscale x 2
set xrange [b_min / 1.4 : b_max * 1.4]
set yrange [0 : t_max * 1.45]
set ylabel "time per evaluation [s]"
set key top center
pick(s, col) = strcol("series") eq s ? column(col) : NaN
setup(s) = strcol("series") eq s ? column("tree") + column("multipole") + column("lists") : NaN

do for [k = 1:3] {
  s = word("target source both", k)
  bucket_col = k == 2 ? "source_bucket" : "target_bucket"
  set title (k == 1 ? "target bucket varied (source at default)" : \
             k == 2 ? "source bucket varied (target at default)" : \
                      "both buckets equal (as the paper's Figure 5)")
  set xlabel (k == 1 ? "target bucket size N_b" : k == 2 ? "source bucket size N_b" : "bucket size N_b (target = source)")
  if (k == 1) { set key top center } else { unset key }
  plot f using bucket_col:(pick(s, "total")) with linespoints pt 7 ps 1.3 lc rgb "black" title "total", \
       '' using bucket_col:(pick(s, "near")) with linespoints pt 5 ps 1.2 lc rgb c_near title "near field (direct pairs)", \
       '' using bucket_col:(pick(s, "far")) with linespoints pt 9 ps 1.4 lc rgb c_far title "far field (multipoles)", \
       '' using bucket_col:(setup(s)) with linespoints pt 13 ps 1.3 lc rgb c_tree title "tree + multipoles + lists"
}
unset multiplot
