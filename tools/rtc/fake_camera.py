#!/usr/bin/python3
"""Chromium's fake camera playing a pairing code (tools/rtc/qr_y4m.py) through the same
steps as src/platform/camera.rs — getUserMedia with the back camera, a video, a frame
drawn on a canvas, getImageData, grey levels — saved as a PGM for
`pairing read FRAME.pgm` (`net::qr::read_qr`).

    python3 -m http.server 18931 --bind 127.0.0.1 &   # any page on localhost
    tools/rtc/fake_camera.py code.y4m frame.pgm [URL]"""
import base64, sys
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

JS = r"""
const done = arguments[arguments.length - 1];
(async () => {
  const stream = await navigator.mediaDevices.getUserMedia({video: {facingMode: 'environment'}, audio: false});
  const video = document.createElement('video');
  video.muted = true; video.setAttribute('playsinline', '');
  document.body.appendChild(video);
  video.srcObject = stream;
  await video.play();
  while (video.readyState < 2 || !video.videoWidth) await new Promise(r => setTimeout(r, 50));
  await new Promise(r => setTimeout(r, 300));
  const w = video.videoWidth, h = video.videoHeight;
  const canvas = document.createElement('canvas');
  canvas.width = w; canvas.height = h;
  const ctx = canvas.getContext('2d', {willReadFrequently: true});
  ctx.drawImage(video, 0, 0, w, h);
  const rgba = ctx.getImageData(0, 0, w, h).data;
  let grey = '';
  for (let i = 0; i < rgba.length; i += 4)
    grey += String.fromCharCode((77 * rgba[i] + 150 * rgba[i + 1] + 29 * rgba[i + 2]) >> 8);
  stream.getTracks().forEach(t => t.stop());
  done({w, h, grey: btoa(grey)});
})().catch(e => done({error: String(e)}));
"""

def main():
    o = Options()
    o.binary_location = '/usr/bin/chromium'
    for a in ['--headless=new', '--no-sandbox', '--disable-gpu', '--use-fake-device-for-media-stream',
              '--use-fake-ui-for-media-stream', f'--use-file-for-fake-video-capture={sys.argv[1]}']:
        o.add_argument(a)
    d = webdriver.Chrome(service=Service('/usr/bin/chromedriver'), options=o)
    try:
        # A secure context (getUserMedia needs one): a page on localhost (any will do).
        d.get(sys.argv[3] if len(sys.argv) > 3 else 'http://127.0.0.1:18931/')
        d.set_script_timeout(20)
        r = d.execute_async_script(JS)
    finally:
        d.quit()
    if 'error' in r:
        sys.exit(r['error'])
    with open(sys.argv[2], 'wb') as f:
        f.write(f"P5\n{r['w']} {r['h']}\n255\n".encode() + base64.b64decode(r['grey']))
    print(r['w'], r['h'])

if __name__ == '__main__':
    main()
