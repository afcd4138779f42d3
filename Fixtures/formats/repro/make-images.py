#!/usr/bin/env python3
"""Writes header-only images: a 1024x1024 PNG (seed 002), a 2048x1536 JPEG (SOF0 after APP0/APP1)
and a HEIC with a 4032x3024 primary ispe beside a 320x240 thumbnail ispe. Run from this directory."""
import struct
import zlib


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


png = b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 1024, 1024, 8, 6, 0, 0, 0))
png += png_chunk(b"IDAT", zlib.compress(b"")) + png_chunk(b"IEND", b"")
open("../../widget/illustration-1024.png", "wb").write(png)

app0 = b"JFIF\x00\x01\x01\x00\x00\x48\x00\x48\x00\x00"
app1 = b"Exif\x00\x00" + b"\x00" * 20
sof0 = struct.pack(">BHHB", 8, 1536, 2048, 3) + b"\x01\x22\x00\x02\x11\x01\x03\x11\x01"
jpeg = b"\xff\xd8"
for marker, body in ((0xE0, app0), (0xE1, app1), (0xDB, b"\x00" + bytes(64)), (0xC0, sof0)):
    jpeg += struct.pack(">BBH", 0xFF, marker, len(body) + 2) + body
jpeg += b"\xff\xd9"
open("image-2048x1536.jpg", "wb").write(jpeg)


def box(kind, body):
    return struct.pack(">I", 8 + len(body)) + kind + body


def full_box(kind, body):
    return box(kind, b"\x00\x00\x00\x00" + body)


ftyp = box(b"ftyp", b"heic" + struct.pack(">I", 0) + b"mif1heic")
ipco = box(b"ipco", full_box(b"ispe", struct.pack(">II", 320, 240)) + full_box(b"ispe", struct.pack(">II", 4032, 3024)))
meta = full_box(b"meta", full_box(b"hdlr", bytes(4) + b"pict" + bytes(13)) + box(b"iprp", ipco))
open("image-4032x3024.heic", "wb").write(ftyp + meta + box(b"mdat", b""))

# An Xcode-compressed PNG (pngcrush -iphone, as in a built .app): a CgBI chunk before IHDR, BGRA pixels,
# raw deflate (no zlib header). 180x180, an app icon's @3x size.
cgbi = png_chunk(b"CgBI", bytes([0x50, 0x00, 0x20, 0x06]))
ihdr = png_chunk(b"IHDR", struct.pack(">IIBBBBB", 180, 180, 8, 6, 0, 0, 0))
raw = zlib.compressobj(9, zlib.DEFLATED, -15)
idat = raw.compress(b"".join(b"\x00" + bytes(180 * 4) for _ in range(180))) + raw.flush()
open("icon-180-cgbi.png", "wb").write(b"\x89PNG\r\n\x1a\n" + cgbi + ihdr + png_chunk(b"IDAT", idat) + png_chunk(b"IEND", b""))
