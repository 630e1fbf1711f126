// Preloaded (node --require) into the built CLI by test/property/crash.test.ts to inject a crash from outside
// the code under test: once a sync has created its temp file `<dataset file>.new-<pid>` in
// PD_CRASH_DIR, throw from a timer (PD_CRASH=throw: an uncaught exception, as a dependency's socket
// handler would) or reject a promise nobody awaits (PD_CRASH=reject).
'use strict';
const fs = require('node:fs');

const dir = process.env.PD_CRASH_DIR;
const mode = process.env.PD_CRASH;
if (dir && mode) {
  const timer = setInterval(() => {
    let names = [];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return;
    }
    if (!names.some((n) => /\.new-\d+$/.test(n))) return;
    clearInterval(timer);
    if (mode === 'reject') void Promise.reject(new Error('injected rejection during the load'));
    else throw new Error('injected crash during the load');
  }, 2);
}
