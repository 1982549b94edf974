# The disc normal to the stream (data/disc-normal-re1000.json) from vortex-body's diagnostics.csv:
# C_D by the impulse and by pressure plus skin friction, against the thin-disc reference 1.17
# (Clift, Grace & Weber), and the side forces (top); the total vorticity of particles and sheet
# (bottom), against t. Callers set `csv`, `qa` (the dynamic pressure times the area: pi/8 for a
# disc of diameter 1 at speed 1) and `outfile`. The stream is along z.
set terminal pngcairo size 1000,900 enhanced font "DejaVu Sans,12" linewidth 1.5
set output outfile
set datafile separator ","
set multiplot layout 2,1
set grid
set key below horizontal
set xlabel "t U / D"
set ylabel "force coefficient"
set yrange [-0.4:1.6]
set title "Disc (10:10:1 ellipsoid) normal to the stream, Re = 1000, 11,520 panels, Δt = 0.04"
plot csv using 2:8 every ::2 with lines lc rgb "#4e79a7" title "C_D, impulse", \
     csv using 2:(($56 + $63) / qa) every ::2 with lines lw 2 lc rgb "#59a14f" title "C_D, pressure + friction", \
     1.17 with lines dt 2 lc rgb "black" title "1.17 (Clift, Grace and Weber)", \
     csv using 2:(($54 + $61) / qa) every ::2 with lines lc rgb "#f28e2b" title "side x, pressure + friction", \
     csv using 2:(($55 + $62) / qa) every ::2 with lines lc rgb "#e15759" title "side y, pressure + friction"
set ylabel "total vorticity"
set yrange [*:*]
set title "Particles and sheet: Ω_x, Ω_y, Ω_z (zero in the exact flow)"
plot csv using 2:13 every ::2 with lines dt 2 lc rgb "#4e79a7" title "Ω_x", \
     csv using 2:14 every ::2 with lines lc rgb "#4e79a7" title "Ω_y", \
     csv using 2:15 every ::2 with lines lw 2 lc rgb "#59a14f" title "Ω_z"
unset multiplot
