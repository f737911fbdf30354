// jxray/testing for ESM test files (vitest, jest, node:test): the CommonJS build re-exported,
// so `import` and `require` of jxray/testing share one engine and one error class.

import testing from "../dist/testing.cjs";

export const { assertExtracts, fixtures, JxrayAssertionError } = testing;
