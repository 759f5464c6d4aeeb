/**
 * Debian's chromium, as Playwright and the dashboard benchmark launch it: never a downloaded
 * browser, and with the flags that keep it from calling out on a closed network (without them it
 * floods the network with refused connections).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
