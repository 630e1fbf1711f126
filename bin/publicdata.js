#!/usr/bin/env node
// Tiny launcher: everything else loads from the built CLI, lazily where it can.
import '../dist/cli/main.js';
