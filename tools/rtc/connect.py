#!/usr/bin/python3
"""Proves that two real browsers open a data channel through Hotseat's pairing texts
(issues 31 and 40): browser A's offer is encoded and decoded by `net::pairing` (the
`pairing` example), browser B gets only the rebuilt SDP, answers; B's answer goes the same
way back to A; then a message crosses the channel each way. A and B are Chromium, or
Debian's Firefox ESR (`--a=firefox`, `--b=firefox`: driven over Marionette,
tests/browser/firefox.py), so each engine takes the other's rebuilt SDP.

    cargo build --no-default-features --example pairing
    tools/rtc/connect.py TARGET/debug/examples/pairing [--mdns] [--a=firefox] [--b=firefox]

`--mdns` keeps Chromium's default (addresses hidden behind `<uuid>.local`); without it the
addresses are shown, as for a page with camera permission. Firefox keeps its default (mDNS
names). Prints the texts' lengths and OK, or why not (exit status 1)."""
import json, os, subprocess, sys, tempfile, time
from capture import browser

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "browser"))


def engine(name, mdns):
    if name == "firefox":
        from firefox import Firefox
        return Firefox(tempfile.mkdtemp(prefix="hotseat-connect-"))
    return browser(mdns)

GATHER = r"""
window.gathered = pc => pc.iceGatheringState === 'complete' ? Promise.resolve() :
  new Promise(r => pc.addEventListener('icegatheringstatechange',
    () => { if (pc.iceGatheringState === 'complete') r(); }));
window.log = [];
"""

OFFER = GATHER + r"""
const done = arguments[arguments.length - 1];
(async () => {
  const pc = window.pc = new RTCPeerConnection({iceServers: []});
  const dc = window.dc = pc.createDataChannel('hotseat');
  dc.onopen = () => log.push('open');
  dc.onmessage = e => log.push('got ' + e.data);
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  done(pc.localDescription.sdp);
})().catch(e => done('error ' + e));
"""

ANSWER = GATHER + r"""
const [sdp, done] = arguments;
(async () => {
  const pc = window.pc = new RTCPeerConnection({iceServers: []});
  pc.ondatachannel = e => {
    const dc = window.dc = e.channel;
    dc.onopen = () => log.push('open');
    dc.onmessage = e => log.push('got ' + e.data);
    if (dc.readyState === 'open') log.push('open');
  };
  await pc.setRemoteDescription({type: 'offer', sdp});
  await pc.setLocalDescription(await pc.createAnswer());
  await gathered(pc);
  done(pc.localDescription.sdp);
})().catch(e => done('error ' + e));
"""

FINISH = r"""
const [sdp, done] = arguments;
pc.setRemoteDescription({type: 'answer', sdp}).then(() => done('ok'), e => done('error ' + e));
"""

def run(tool, *args, stdin):
    p = subprocess.run([tool, *args], input=stdin, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f'pairing {" ".join(args)}: {p.stderr.strip()}')
    # println!'s newline only: the SDP's own last \r\n is part of it.
    return p.stdout.removesuffix('\n')

def wait_for(d, what, secs=20):
    end = time.time() + secs
    while time.time() < end:
        log = d.execute_script('return window.log')
        if what in log:
            return True
        time.sleep(0.1)
    return False

def main():
    tool, mdns = sys.argv[1], '--mdns' in sys.argv
    side = lambda k: next((x.split('=', 1)[1] for x in sys.argv if x.startswith(f'--{k}=')), 'chromium')
    a = engine(side('a'), mdns)
    b = engine(side('b'), mdns)
    try:
        for d in (a, b):
            d.get('about:blank')
            d.set_script_timeout(20)
        offer_sdp = a.execute_async_script(OFFER)
        assert not offer_sdp.startswith('error'), offer_sdp
        offer = run(tool, 'encode', 'offer', '4321', stdin=offer_sdp)
        rebuilt = run(tool, 'decode', stdin=offer)
        code, _, rebuilt = rebuilt.partition('\n')
        assert code == 'code 4321', code
        answer_sdp = b.execute_async_script(ANSWER, rebuilt)
        assert not answer_sdp.startswith('error'), answer_sdp
        answer = run(tool, 'encode', 'answer', stdin=answer_sdp)
        rebuilt = run(tool, 'decode', stdin=answer)
        assert a.execute_async_script(FINISH, rebuilt) == 'ok'
        t0 = time.time()
        if not (wait_for(a, 'open') and wait_for(b, 'open')):
            sys.exit('the data channel did not open')
        opened = time.time() - t0
        a.execute_script("dc.send('hello from A')")
        b.execute_script("dc.send('hello from B')")
        if not (wait_for(b, 'got hello from A') and wait_for(a, 'got hello from B')):
            sys.exit('the messages did not cross')
        print(json.dumps({'a': side('a'), 'b': side('b'), 'mdns': mdns, 'offer_chars': len(offer), 'answer_chars': len(answer),
                          'offer_sdp_chars': len(offer_sdp), 'answer_sdp_chars': len(answer_sdp),
                          'open_after_s': round(opened, 2), 'offer': offer, 'answer': answer}))
        print('OK')
    finally:
        a.quit()
        b.quit()

if __name__ == '__main__':
    main()
