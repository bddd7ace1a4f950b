# two flows that d-mod-k puts on one up-link of leaf 0 of FT(4,3)
# (h0 -> h4, h1 -> h8: 0.5 of the rate each; by hand, a switch that
# splits them over its two up-links: 1 each)
0 4
1 8
