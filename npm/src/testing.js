// jxray/testing for ESM test files (vitest, jest, node:test).

import { jxray } from "./node-engine.js";
import { makeTesting } from "./testing-core.js";

const testing = makeTesting(jxray);

export const { assertExtracts, fixtures, JxrayAssertionError } = testing;
