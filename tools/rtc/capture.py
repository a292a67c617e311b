#!/usr/bin/python3
"""Captures the SDPs a real headless Chromium makes for a data-channel-only
RTCPeerConnection with no ICE servers (issue 31's pairing): an offer and the answer to it,
after ICE gathering is complete. `--mdns` keeps Chromium's default (host addresses hidden
behind `<uuid>.local` names); without it the flag that turns the hiding off is given, as a
page holding camera permission gets. Prints JSON {"offer": SDP, "answer": SDP}."""
import json, sys
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

JS = r"""
const done = arguments[arguments.length - 1];
async function gathered(pc) {
  if (pc.iceGatheringState === 'complete') return;
  await new Promise(r => pc.addEventListener('icegatheringstatechange',
    () => { if (pc.iceGatheringState === 'complete') r(); }));
}
(async () => {
  const a = new RTCPeerConnection({iceServers: []});
  a.createDataChannel('hotseat');
  await a.setLocalDescription(await a.createOffer());
  await gathered(a);
  const b = new RTCPeerConnection({iceServers: []});
  await b.setRemoteDescription(a.localDescription);
  await b.setLocalDescription(await b.createAnswer());
  await gathered(b);
  done({offer: a.localDescription.sdp, answer: b.localDescription.sdp});
})().catch(e => done({error: String(e)}));
"""

def browser(mdns):
    o = Options()
    o.binary_location = '/usr/bin/chromium'
    for a in ['--headless=new', '--no-sandbox', '--disable-gpu']:
        o.add_argument(a)
    if not mdns:
        o.add_argument('--disable-features=WebRtcHideLocalIpsWithMdns')
    return webdriver.Chrome(service=Service('/usr/bin/chromedriver'), options=o)

if __name__ == '__main__':
    d = browser('--mdns' in sys.argv)
    try:
        d.get('data:text/html,<title>sdp</title>')
        d.set_script_timeout(20)
        print(json.dumps(d.execute_async_script(JS), indent=1))
    finally:
        d.quit()
