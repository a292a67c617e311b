#!/usr/bin/python3
"""Writes a pairing text's QR code as a Y4M video for Chromium's fake camera (issue 31):

    PAIRING=TARGET/debug/examples/pairing
    echo HS1O... | $PAIRING qr | tools/rtc/qr_y4m.py code.y4m
    chromium --use-fake-device-for-media-stream --use-fake-ui-for-media-stream \\
             --use-file-for-fake-video-capture=code.y4m ...

640x480, grey, the code 6 pixels a module with its 4-module quiet zone in the middle of a
mid-grey frame, 10 identical frames at 5 fps (Chromium loops the file)."""
import sys

W, H, SCALE, QUIET = 640, 480, 6, 4

def main():
    rows = [l.strip() for l in sys.stdin if l.strip()]
    side = len(rows)
    px = (side + 2 * QUIET) * SCALE
    if px > H:
        sys.exit(f'a {side}-module code at {SCALE} px a module does not fit in {H} rows')
    y = bytearray([128]) * (W * H)
    left, top = (W - px) // 2, (H - px) // 2
    for j in range(px):
        for i in range(px):
            mx, my = i // SCALE - QUIET, j // SCALE - QUIET
            dark = 0 <= mx < side and 0 <= my < side and rows[my][mx] == '#'
            y[(top + j) * W + left + i] = 20 if dark else 235
    chroma = bytes([128]) * (W * H // 4)
    with open(sys.argv[1], 'wb') as f:
        f.write(f'YUV4MPEG2 W{W} H{H} F5:1 Ip A1:1 C420jpeg\n'.encode())
        for _ in range(10):
            f.write(b'FRAME\n' + bytes(y) + chroma + chroma)

if __name__ == '__main__':
    main()
