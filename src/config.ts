/** Moved: the configuration lives in src/kernel/config (one schema). */
export * from './kernel/config';
