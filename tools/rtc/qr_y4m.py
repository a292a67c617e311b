#!/usr/bin/python3
"""Writes a pairing text's QR code as a Y4M video for Chromium's fake camera (issue 31):

    PAIRING=TARGET/debug/examples/pairing
    echo HS2O... | $PAIRING qr | tools/rtc/qr_y4m.py code.y4m
    tools/rtc/qr_y4m.py code.y4m --text HS2O...     # the code made by python3-qrcode
    chromium --use-fake-device-for-media-stream --use-fake-ui-for-media-stream \\
             --use-file-for-fake-video-capture=code.y4m ...

640x480, grey, the code 6 pixels a module (fewer for a code too large for that) with its
4-module quiet zone in the middle of a mid-grey frame, 10 identical frames at 5 fps
(Chromium loops the file). tests/browser/rtc.py uses `write` and `modules` to show one
page's code to the other page's camera; `write(path, [])` is a frame with no code."""
import os
import sys

W, H, SCALE, QUIET = 640, 480, 6, 4


def modules(text):
    """The QR code of `text` as rows of `#` (dark) and `.`, by python3-qrcode, at error
    correction M as the app shows it (src/net/qr.rs)."""
    import qrcode
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=0)
    code.add_data(text)
    code.make(fit=True)
    return ["".join("#" if dark else "." for dark in row) for row in code.get_matrix()]


def write(path, rows):
    """The code `rows` (`#` dark) as a Y4M at `path`, replaced whole (a reader never sees
    half a file)."""
    side = len(rows)
    scale = min(SCALE, H // (side + 2 * QUIET)) if side else SCALE
    px = (side + 2 * QUIET) * scale
    if side and scale < 2:
        sys.exit(f'a {side}-module code does not fit in {H} rows')
    y = bytearray([128]) * (W * H)
    if side:
        left, top = (W - px) // 2, (H - px) // 2
        for j in range(px):
            for i in range(px):
                mx, my = i // scale - QUIET, j // scale - QUIET
                dark = 0 <= mx < side and 0 <= my < side and rows[my][mx] == '#'
                y[(top + j) * W + left + i] = 20 if dark else 235
    chroma = bytes([128]) * (W * H // 4)
    partial = path + ".part"
    with open(partial, 'wb') as f:
        f.write(f'YUV4MPEG2 W{W} H{H} F5:1 Ip A1:1 C420jpeg\n'.encode())
        for _ in range(10):
            f.write(b'FRAME\n' + bytes(y) + chroma + chroma)
    os.replace(partial, path)


def main():
    if len(sys.argv) >= 4 and sys.argv[2] == '--text':
        rows = modules(sys.argv[3])
    else:
        rows = [l.strip() for l in sys.stdin if l.strip()]
    write(sys.argv[1], rows)


if __name__ == '__main__':
    main()
