/** A problem starting the embedded PostgreSQL that the user can act on; the message says what to change. */
export class EmbeddedPostgresError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddedPostgresError';
  }
}
