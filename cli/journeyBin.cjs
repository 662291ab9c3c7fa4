#!/usr/bin/env node
// The `journey` bin: runs the TypeScript CLI through tsx's CommonJS hook (tsx is a dependency), so
// no build step is needed.
require('tsx/cjs');
require('./journey.ts');
