import { routeAuth } from '../auth/routeAuth';
import { authRoutes } from '../auth/routes';
import { billingRoutes } from '../billing/routes';
import { commerceRoutes } from '../commerce/routes';
import { crmRoutes } from '../crm/routes';
import { formRoutes } from '../forms/routes';
import { cronRoutes } from '../cron/routes';
import { scheduleRoutes } from '../cron/scheduleRoutes';
import { inboxRoutes } from '../inbox/routes';
import { emailKeyRoutes } from '../email/keys/routes';
import { emailDomainRoutes } from '../email/domains/routes';
import { emailSendRoutes } from '../email/send/routes';
import { emailSuppressionRoutes } from '../email/suppressions/routes';
import { emailTemplateRoutes } from '../email/templates/routes';
import { emailTrackingRoutes } from '../email/tracking/routes';
import { emailUnsubscribeRoutes } from '../email/unsubscribe/routes';
import { emailWebhookRoutes } from '../email/webhooks/routes';
import { jobActionRoutes } from '../jobs/actionRoutes';
import { jobEventRoutes } from '../jobs/eventRoutes';
import { jobRoutes } from '../jobs/routes';
import { alertRoutes } from '../alerts/routes';
import { knowledgeRoutes } from '../knowledge/routes';
import { marketingRoutes } from '../marketing/routes';
import { publishToSiteRoutes } from '../marketing/publishToSite/routes';
import { projectRoutes } from '../projects';
import { deploymentRoutes } from '../projects/deployments';
import { researchRoutes } from '../research/routes';
import { sitePlatformConnectionRoutes } from '../sitePlatform/connections';
import { sitePlatformOperationRoutes } from '../sitePlatform/operations';
import { sitePlatformFormsRoutes } from '../sitePlatform/forms/routes';
import { sitePlatformMcpRoutes } from '../sitePlatform/mcp';
import { sitePlatformRegistrationRoutes } from '../sitePlatform/webhooks/routes';
import { siteWebhookReceiverRoutes } from '../sitePlatform/webhooks/receiverRoutes';
import type { RouteDef } from '../http/route';
import { systemRoutes } from '../http/systemRoutes';

/** Every route of the API, area by area. `all` gives the OpenAPI document the complete list. */
export function apiRoutes(all: () => RouteDef[]): RouteDef[] {
  return [
    ...systemRoutes(all, routeAuth.docs),
    ...authRoutes(),
    ...billingRoutes(),
    ...crmRoutes(),
    ...formRoutes(),
    ...marketingRoutes(),
    ...knowledgeRoutes(),
    ...researchRoutes(),
    ...jobActionRoutes(),
    ...jobEventRoutes(),
    ...jobRoutes(),
    ...alertRoutes(),
    ...cronRoutes(),
    ...scheduleRoutes(),
    ...commerceRoutes(),
    ...inboxRoutes(),
    ...projectRoutes(),
    ...deploymentRoutes(),
    ...sitePlatformConnectionRoutes(),
    ...sitePlatformOperationRoutes(),
    ...sitePlatformFormsRoutes(),
    ...sitePlatformRegistrationRoutes(),
    ...publishToSiteRoutes(),
    ...sitePlatformMcpRoutes(),
    ...siteWebhookReceiverRoutes(),
    ...emailKeyRoutes(),
    ...emailWebhookRoutes(),
    ...emailDomainRoutes(),
    ...emailTemplateRoutes(),
    ...emailSendRoutes(),
    ...emailSuppressionRoutes(),
    ...emailUnsubscribeRoutes(),
    ...emailTrackingRoutes(),
  ];
}
