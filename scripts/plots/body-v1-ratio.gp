# C_D of the impulsively started sphere over the Basset term 12/sqrt(pi Re t), the V1 runs
# (docs/data/sphere-v1-ratios.csv) against the boundary-layer limit Re -> infinity
# (docs/data/sphere-boundary-layer.csv, python/vortex/boundary_layer.py) and a band of +-10 % about
# it. gnuplot -e "outfile='docs/images/body-v1-ratio.png'" scripts/plots/body-v1-ratio.gp
set terminal pngcairo size 900,600 enhanced font "DejaVu Sans,12" linewidth 1.5
set output outfile
set datafile separator ","
set grid
set key top left
set xlabel "t U / D"
set ylabel "C_D / (12 / sqrt(pi Re t))"
set xrange [0:0.31]
set yrange [0.85:1.45]
limit = "docs/data/sphere-boundary-layer.csv"
runs = "docs/data/sphere-v1-ratios.csv"
names = "re100-f8 re300-f12 re300-f16 re300-f20 re1000-f24"
titles = "'Re 100, f 8' 'Re 300, f 12' 'Re 300, f 16' 'Re 300, f 20' 'Re 1000, f 24'"
colors = "#9c755f #4e79a7 #76b7b2 #59a14f #e15759"
plot limit using 1:(0.9 * $3):(1.1 * $3) with filledcurves lc rgb "#dddddd" title "boundary-layer limit +-10 %", \
     limit using 1:3 with lines lc rgb "black" lw 2 title "boundary-layer limit (Re -> infinity)", \
     1 with lines lc rgb "black" dt 2 title "Basset term", \
     for [k = 1:words(names)] runs using (strcol(1) eq word(names, k) ? $3 : 1/0):5 \
       with linespoints lc rgb word(colors, k) pt 7 ps 0.9 title word(titles, k)
