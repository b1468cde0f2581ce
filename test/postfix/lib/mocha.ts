import { startPostfix, type PostfixInstance, type PostfixOptions } from '../launcher';
import { postfixAvailable, postfixGate } from './availability';
import { logTail } from './commands';

/**
 * In a `before` hook: skips the suite, saying why, when Postfix cannot run here; under CI=true it fails instead, so
 * CI never passes without the Postfix tests having run.
 */
export function requirePostfix(context: Mocha.Context): void {
  const gate = postfixGate(postfixAvailable());
  if (gate.run) return;
  if ('fail' in gate) throw new Error(gate.fail);
  console.log(`      ${gate.skip}`);
  context.skip();
}

/**
 * Mocha hooks of a suite on one Postfix instance: started before the suite (options may be computed then, e.g. the
 * port of a return-path server started in an earlier hook), destroyed after it. When a test of the suite failed, the
 * end of the maillog is printed first. Returns the running instance's getter.
 */
export function usePostfix(options: PostfixOptions | (() => PostfixOptions | Promise<PostfixOptions>) = {}): () => PostfixInstance {
  let instance: PostfixInstance | undefined;
  before(async function () {
    requirePostfix(this);
    this.timeout(90_000);
    instance = await startPostfix(typeof options === 'function' ? await options() : options);
  });
  after(async function () {
    if (!instance) return;
    this.timeout(60_000);
    const failed = this.test?.parent?.tests.some((test) => test.state === 'failed');
    if (failed) console.error(`--- ${instance.logPath} (end) ---\n${await logTail(instance.logPath, 80)}`);
    await instance.destroy();
    instance = undefined;
  });
  return () => {
    if (!instance) throw new Error('the Postfix instance is not running (usePostfix starts it in a before hook)');
    return instance;
  };
}
