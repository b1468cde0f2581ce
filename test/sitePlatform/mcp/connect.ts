import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createSitePlatformMcpServer, type SitePlatformMcpOptions } from '../../../src/sitePlatform/mcp';

/** Both site platform permissions: a key that may use every tool its read-only flag allows. */
export const SITE_PLATFORM_PERMISSIONS = ['site_platform:read', 'site_platform:write'];

/** The SDK's own client connected to our server over the SDK's in-memory transport. */
export async function connectClient(opts: SitePlatformMcpOptions): Promise<{ client: Client; close: () => Promise<void> }> {
  const server = createSitePlatformMcpServer(opts);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
