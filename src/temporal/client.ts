import { Client, Connection } from '@temporalio/client';
import { tracingClientInterceptors } from '../telemetry/tracingState';
import { temporalClientGrpcInterceptors } from '../telemetry/metricsTemporalClient';

export async function connectTemporal(address: string, namespace: string): Promise<Client> {
  const connection = await Connection.connect({ address, interceptors: temporalClientGrpcInterceptors() });
  return new Client({ connection, namespace, interceptors: tracingClientInterceptors() });
}
