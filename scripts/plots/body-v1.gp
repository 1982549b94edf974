# C_D(t) of the impulsively started sphere (scripts/studies/body-v1.sh): each run folder in `dirs`
# (named re<RE>-f<F>) against 12 / sqrt(pi Re t); the first step (the impulsive start's average)
# is left off. Callers set `dirs` (space-separated) and `outfile`.
set terminal pngcairo size 900,600 enhanced font "DejaVu Sans,12" linewidth 1.5
set output outfile
set datafile separator ","
set grid
set key top right
set xlabel "t U / D"
set ylabel "C_D"
set xrange [0:0.31]
set yrange [0:*]
re(d) = real(substr(d, strstrt(d, "/re") + 3, strstrt(d, "-f") - 1))
name(d) = substr(d, strstrt(d, "/re") + 1, strlen(d))
colors = "#4e79a7 #e15759 #59a14f #f28e2b"
plot for [k = 1:words(dirs)] word(dirs, k)."/diagnostics.csv" using 3:8 every ::2 \
       with linespoints lc rgb word(colors, k) pt 7 ps 0.8 title sprintf("Re = %g (%s)", re(word(dirs, k)), name(word(dirs, k))), \
     for [k = 1:words(dirs)] 12 / sqrt(pi * re(word(dirs, k)) * x) lc rgb word(colors, k) dt 2 \
       title sprintf("12/sqrt(pi Re t), Re = %g", re(word(dirs, k)))
