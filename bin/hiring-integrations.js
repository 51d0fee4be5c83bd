#!/usr/bin/env node
require('../dist/src/standalone/cli.js').main();
