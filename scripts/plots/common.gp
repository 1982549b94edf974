# Settings shared by the report's plots. Callers set `dir` (the report folder) and may set
# `outdir` (where the PNGs go; default: dir) before loading.
out = exists("outdir") ? outdir : dir
# Callers may set the image size W x H (pixels) first.
if (!exists("W")) W = 1500
if (!exists("H")) H = 620
set terminal pngcairo size W,H enhanced font "DejaVu Sans,12" linewidth 1.5
set datafile separator ","
set datafile columnheaders
set datafile missing "nan"
set grid ytics lc rgb "#dddddd"
set key opaque box lc rgb "#bbbbbb"
# Colors of the solver's stages, the same in every plot.
c_tree = "#4e79a7"; c_multipole = "#f28e2b"; c_lists = "#59a14f"
c_near = "#e15759"; c_far = "#76b7b2"; c_transfer = "#b07aa1"; c_other = "#bab0ac"
# Seconds as a bar label: 11242 s, 251.5 s, 0.2113 s.
secs(v) = v >= 1000 ? sprintf("%.0f s", v) : sprintf("%.4g s", v)
# Log-axis tics at 1, 2 and 5 times each power of ten, for ranges within a decade or two.
tics125 = "(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000)"
