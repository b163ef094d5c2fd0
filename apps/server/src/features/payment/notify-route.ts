import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppDeps } from '../../lib/context.ts';
import { fulfilOrder, type Fulfiller } from './fulfil.ts';
import { PaymentProviderError, type NotifyAnswer, type ProviderName } from './providers/types.ts';
import { settleRefundNotification } from './refunds.ts';
import { findOrder } from './repository.ts';
import { loadPaySetting, providerOf } from './settings.ts';

const MAX_ID = 2_147_483_647;
/** Providers' notifications are small (WeChat's encrypted resource, Alipay's form). */
const NOTIFY_BODY_LIMIT = 64 * 1024;

const send = (reply: FastifyReply, a: NotifyAnswer) =>
  reply.code(a.status).header('content-type', a.contentType).send(a.body);

/**
 * POST /pay/notify/wechat/:storeId and /pay/notify/alipay/:storeId: the providers' payment
 * notifications. Plain routes outside the contract (providers do not speak {code, data, msg}), in
 * their own Fastify context whose only body parser keeps the raw text: WeChat Pay signs the exact
 * bytes of its JSON body, Alipay posts a form whose values are verified as sent. A notification is
 * believed only when its signature checks (and, for WeChat, its time and decryption) and its amount,
 * merchant and app match the order; anything else is refused, logged and written nowhere. Answers
 * as each provider's documentation asks (the adapters' notifyAnswer).
 */
export function registerPayNotifyRoutes(app: FastifyInstance, deps: AppDeps) {
  return app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: NOTIFY_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    scope.post<{ Params: { provider: string; storeId: string } }>(
      '/pay/notify/:provider/:storeId',
      { bodyLimit: NOTIFY_BODY_LIMIT },
      async (req, reply) => {
        const name = req.params.provider;
        const storeId = /^\d{1,10}$/.test(req.params.storeId) ? Number(req.params.storeId) : 0;
        if ((name !== 'wechat' && name !== 'alipay') || storeId < 1 || storeId > MAX_ID) {
          return reply
            .code(404)
            .header('content-type', 'application/json')
            .send({ code: 'FAIL', message: '未知的通知地址' });
        }
        const providerName: ProviderName = name;
        const setting = await loadPaySetting(deps.db, storeId);
        const provider = providerOf(setting, providerName, deps);
        if (!provider) {
          deps.log.warn({ storeId, provider: providerName }, 'payment notification for a store without that provider');
          return reply
            .code(404)
            .header('content-type', 'application/json')
            .send({ code: 'FAIL', message: '本店未开通该支付渠道' });
        }
        const body = typeof req.body === 'string' ? req.body : '';
        const log = { storeId, provider: providerName };
        let verified;
        try {
          verified = provider.verifyNotification({ headers: req.headers, body });
        } catch (e) {
          if (!(e instanceof PaymentProviderError)) throw e;
          deps.log.warn({ ...log, kind: e.kind, reason: e.message }, 'payment notification refused');
          return send(reply, provider.notifyAnswer(false, '验签失败'));
        }
        // A refund's result settles that refund (refunds.ts); nothing else is ours to do.
        if (verified.kind === 'refund') {
          const ok = await settleRefundNotification(deps, storeId, providerName, verified.outTradeNo, verified.refund);
          return send(reply, provider.notifyAnswer(ok, ok ? undefined : '退款信息不符'));
        }
        if (verified.kind !== 'payment') return send(reply, provider.notifyAnswer(true));
        const facts = verified.order;
        const order = await findOrder(deps.db, storeId, facts.outTradeNo);
        if (!order || order.provider !== providerName) {
          deps.log.warn({ ...log, orderNo: facts.outTradeNo }, 'payment notification for an unknown order refused');
          return send(reply, provider.notifyAnswer(false, '订单不存在'));
        }
        // Not (yet) paid (Alipay also notifies WAIT_BUYER_PAY and TRADE_CLOSED): nothing to fulfil.
        if (facts.state !== 'paid') return send(reply, provider.notifyAnswer(true));
        const by: Fulfiller = { kind: 'system', call: `/pay/notify/${providerName}` };
        try {
          const r = await fulfilOrder(deps, order, facts, setting, by, true);
          return send(reply, provider.notifyAnswer(r !== 'refused', r === 'refused' ? '订单信息不符' : undefined));
        } catch (e) {
          deps.log.error(
            { ...log, orderNo: order.orderNo, err: (e as Error).message },
            'fulfilling a paid order failed',
          );
          return send(reply, provider.notifyAnswer(false, '处理失败，请稍后重试'));
        }
      },
    );
  });
}
