/**
 * `/healthz` answers its status only; its details (outages, refusals, sockets) go to the holder of
 * the metrics token. Tests that read them build the app with `metrics: { token: HEALTH_TOKEN }`
 * and send `HEALTH_DETAILS` as headers.
 */
export const HEALTH_TOKEN = 'health-details-token-0123'
export const HEALTH_DETAILS = { authorization: `Bearer ${HEALTH_TOKEN}` }
