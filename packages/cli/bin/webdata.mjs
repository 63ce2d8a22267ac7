#!/usr/bin/env node
// The `webdata` command: the built CLI (`pnpm --filter @webdata/cli build`).
import '../dist/main.js';
