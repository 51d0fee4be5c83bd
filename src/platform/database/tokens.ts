/** Injection token of the knex instance; only storage/ and the composition root use it. */
export const DATABASE = Symbol('Database');
