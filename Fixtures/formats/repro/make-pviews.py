#!/usr/bin/env python3
"""Writes pviews-detail.txt: a Chisel `pviews` dump of the detail screen with 3,573 distinct layers
(seed 000: 2,500 lines rendered as one block). Run from this directory: python3 make-pviews.py"""

next_address = 0x600000A00000


def address():
    global next_address
    next_address += 0x40
    return f"0x{next_address:x}"


def view(depth, name, rest, layer_class, layer=None):
    layer = layer or address()
    return f"{'   | ' * depth}<{name}: {address()}; {rest}; layer = <{layer_class}: {layer}>>", layer


lines = ["(lldb) pviews"]
chain = [("UIWindow", "UIWindowLayer"), ("UITransitionView", "CALayer"), ("UIDropShadowView", "CALayer"),
         ("UILayoutContainerView", "CALayer"), ("_UIHostingView", "CALayer"),
         ("UIScrollView", "CALayer")]
for depth, (name, layer_class) in enumerate(chain):
    lines.append(view(depth, name, "frame = (0 0; 402 874); autoresize = W+H", layer_class)[0])
label_layers = []
for row in range(2500):
    line, _ = view(6, "SwiftUI.CGDrawingView", f"frame = (16 {row * 20}; 370 20); anchorPoint = (0, 0); opaque = NO", "CALayer")
    lines.append(line)
    if row < 500:
        content = address()
        label_layers.append(content)
        lines.append(f"{'   | ' * 7}<_UILabelContentLayer: {content}> (layer)")
for row in range(566):
    lines.append(view(6, "_UIGraphicsView", f"frame = (0 {row * 4}; 402 1); userInteractionEnabled = NO", "CAGradientLayer")[0])
lines.append(view(6, "UILabel", "frame = (16 0; 370 20); text = 'a; b > c layer = <Fake: 0x1>'; userInteractionEnabled = NO", "_UILabelLayer")[0])
# The same sublayer printed twice must count once.
lines.append(f"{'   | ' * 7}<_UILabelContentLayer: {label_layers[0]}> (layer)")
open("../../justsend/pviews-detail.txt", "w").write("\n".join(lines) + "\n")
