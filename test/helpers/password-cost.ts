// Vitest setup file (vitest.config.ts): every test process hashes passwords at a low scrypt cost. Production's
// cost spends a few hundred ms of CPU per hash by design, which made password hashing a large share of a test
// pass; the hash format, verification and re-hash rules are the same at any cost. test/auth/password.test.ts
// pins the production parameters, and processes a test spawns (CLI, replicas) keep the production cost.
import { setPasswordCost } from '../../src/auth/password.ts';

/** 1 MiB and about a millisecond per hash. */
export const TEST_PASSWORD_COST = { N: 1_024, r: 8, p: 1 };

setPasswordCost(TEST_PASSWORD_COST);
