import { Client, Connection } from '@temporalio/client';

/**
 * A client of a Temporal that is not there: port 1 of loopback, where a connection is refused at once. Without the
 * SDK's retries (`interceptors: []`) each call fails UNAVAILABLE immediately, as a call does once the retries are
 * spent, so a test sees the product's answer to an outage without waiting out the request deadline. The one test
 * that waits that deadline with the SDK's retries is in test/temporal/namespaceSetup.test.ts.
 */
export function unreachableTemporal(namespace: string): Client {
  return new Client({ connection: Connection.lazy({ address: '127.0.0.1:1', interceptors: [] }), namespace });
}
