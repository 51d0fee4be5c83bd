#!/usr/bin/env node
require('../dist/src/standalone/cli/cli.js').main();
