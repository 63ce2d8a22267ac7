/**
 * Property tests run with a fixed seed, so CI is repeatable; set FC_SEED to
 * explore other inputs (`FC_SEED=$RANDOM pnpm test`). A failure prints its seed
 * and path for replay.
 */
import fc from 'fast-check';

fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261122) });
