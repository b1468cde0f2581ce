import { Client, Connection } from '@temporalio/client';
import { tracingClientInterceptors } from '../telemetry/tracingState';
import { temporalClientGrpcInterceptors } from '../telemetry/metricsTemporalClient';
import { TemporalSecurity } from './connectionConfig';

/** A client of `namespace`; `security` (TLS, API key) as loadTemporalConnectionSettings read it, plain by default. */
export async function connectTemporal(address: string, namespace: string, security = new TemporalSecurity()): Promise<Client> {
  const connection = await Connection.connect({
    address,
    ...security.connectOptions(),
    interceptors: temporalClientGrpcInterceptors(),
  });
  return new Client({ connection, namespace, interceptors: tracingClientInterceptors() });
}
