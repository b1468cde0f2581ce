// `npm run client:generate`: the TypeScript client's generated part (src/generated/) from the OpenAPI document the API
// serves, made by Hey API's generator. test/clients/typescriptClient/generated.test.ts fails when it is out of date.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { apiRoutes } from '../../../src/app/routes';
import { routeAuth } from '../../../src/auth/routeAuth';
import { buildOpenApi } from '../../../src/http/openapi';

export const GENERATED_DIR = path.resolve(__dirname, '../src/generated');

/** Writes the generated client for the current route table into `outDir` (replacing what is there). */
export async function generateClient(outDir: string): Promise<void> {
  const { createClient } = await import('@hey-api/openapi-ts');
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'wy-client-'));
  try {
    const input = path.join(scratch, 'openapi.json');
    await writeFile(
      input,
      JSON.stringify(
        buildOpenApi(
          apiRoutes(() => []),
          routeAuth.docs,
        ),
      ),
    );
    await createClient({
      input,
      output: { path: outDir, clean: true },
      plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
      logs: { level: 'silent' },
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

if (require.main === module) {
  generateClient(GENERATED_DIR).then(
    () => console.log(`wrote ${path.relative(process.cwd(), GENERATED_DIR)}`),
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
