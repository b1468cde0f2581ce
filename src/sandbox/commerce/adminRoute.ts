import type { SimRequest, SimResponse } from './http';
import type { AccessToken, ShopState, SimState } from './state';

/** One Admin API route of the simulator and what its handler is given. */
export interface AdminContext {
  state: SimState;
  shop: ShopState;
  token: AccessToken;
  req: SimRequest;
}

export interface AdminRoute {
  method: string;
  pattern: RegExp;
  /** A scope the token needs (a write_ scope also grants the read_ scope), if any. */
  scope?: string;
  handle(ctx: AdminContext, match: RegExpMatchArray): SimResponse;
}
