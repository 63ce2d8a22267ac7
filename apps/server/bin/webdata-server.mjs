#!/usr/bin/env node
// The webdata-server command; runs the built server (pnpm build) from dist/.
import '../dist/main.js';
