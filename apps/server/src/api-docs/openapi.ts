// The OpenAPI 3.1 document of the API, generated from the zod contract: every call of `allCalls` with
// its request and answer schema (in the `{code, data, msg}` envelope), who may call it, an example
// request, and the Chinese messages of each error status it can answer.
import * as contract from '@studio/contract';
import { allCalls, callErrors, type CallDef, type CallError } from '@studio/contract';
import { z } from 'zod';

/** Groups of the reference page, in the order of the product's menus. */
const GROUPS: readonly [string, string, readonly CallDef[]][] = [
  ['员工登录', '登录、当前员工、退出', contract.authCalls],
  ['课程表与预约', '课程的增删改查、预约、待签到、签到、历史、导出', contract.timetableCalls],
  ['批量操作', '批量排课、周课表、安插固定学员、复制、批量删除、批量导出', contract.batchCalls],
  ['在线教室', '在线教室、会议设置、发送周课表图', contract.onlineCalls],
  ['会员', '会员的查询和维护、会员的预约', contract.memberCalls],
  [
    '卡种与会员卡',
    '卡种、发卡（收款）、冻结、充值（收款）、退卡与退回充值、到期日期、流水、收款记录',
    contract.cardCalls,
  ],
  ['老师', '老师的查询和维护', contract.teacherCalls],
  ['场地', '场地树的查询和维护（接口中称 area）', contract.areaCalls],
  ['教材', '教材、章节、课时（接口中称 material / book）', contract.materialCalls],
  ['课程', '课程的查询和维护', contract.courseCalls],
  [
    '门店设置',
    '模块状态、门店信息、消息设置、Logo、功能列表、预约设置、首次初始化',
    [...contract.moduleCalls, ...contract.storeSettingCalls, ...contract.storeAdminCalls],
  ],
  ['预约规则', '开放与截止预约、免费取消、迟到取消、候补、爽约', contract.policyCalls],
  ['候补', '已满课程的候补队列：加入、移出、按顺序查看；有空位时自动递补', contract.waitlistCalls],
  ['今日', '当天每节课的人数和名单', contract.todayCalls],
  ['员工与操作日志', '员工和角色（店长、前台、老师）、修改密码、操作日志', contract.staffCalls],
  [
    '数据报表与提醒',
    '总览、按课程、按老师、按时段、每日趋势、私教报表（课程与老师、老师排课率、课包销售与消耗、预收款）、会员卡提醒、久未到店、每日推送',
    contract.reportCalls,
  ],
  [
    '在线收款',
    '微信支付和支付宝的设置与测试连接、线上售卖的卡种和充值、会员下单、支付结果、我的订单、前台扫码收款、线上订单',
    contract.paymentCalls,
  ],
  ['日历订阅', '会员的课程和老师的上课日历订阅地址（iCalendar），重新生成地址', contract.calendarCalls],
  [
    '请假与退卡',
    '会员卡请假（前台登记、会员申请、审批、提前结束）、退卡冷静期与请假审批设置、退卡报价（冷静期全额或按卡种规则）',
    contract.cardLifeCalls,
  ],
  [
    '转卡',
    '把会员卡转给本店另一位会员：转卡前查看持卡人和未上课程的预约，转卡（手续费、预约保留给原持卡人或取消退回）',
    contract.cardTransferCalls,
  ],
  [
    '多人共享',
    '把会员卡共享给本店其他会员（最多为卡种的共享人数）或取消共享；共享成员用这张卡约课，每笔扣费记下是谁约的',
    contract.cardShareCalls,
  ],
  [
    '课时费与销售提成',
    '老师课时费规则、月结单与调整、员工销售提成比例与月结、结算关闭与重新打开月份、员工推广链接',
    [...contract.teacherPayCalls, ...contract.sellerLinkCalls],
  ],
  [
    '导入与导出',
    '导入会员和会员卡（.xlsx 或 .csv：列对应、预检每一行的问题、一次导入、可撤销），导出全部数据（.xlsx 工作簿或 JSON）',
    contract.importExportCalls,
  ],
  [
    '消息提醒',
    '上课提醒、候补成功、课程取消或调整、会员卡到期、余额不足、请假结果：公众号模板消息优先、短信兜底；设置、发送测试、消息记录；会员的提醒开关和微信绑定',
    contract.reminderCalls,
  ],
  [
    '私教与小班',
    '课程类型（1对1、1对2、小班）、器械、老师工作时间与例外、空闲时段；预约私教（前台与会员）、取消（按取消时限）、老师确认、调课、确认设置、固定时段（每周连续预约，预览后一次预约，可撤销）',
    [
      ...contract.lessonCalls,
      ...contract.lessonBookingCalls,
      ...contract.lessonSeriesCalls,
      ...contract.lessonMemberCalls,
    ],
  ],
  [
    '预付卡限额',
    '按城市规定的预付卡限额（不限制、上海 2025、自定义）：售卡、充值、线上购卡与转入按它检查；超出现行限额的会员卡',
    contract.prepaidLimitCalls,
  ],
  [
    '潜客',
    '潜客（意向会员）：新增与按手机号合并、公海与领取、分配跟进人、跟进记录与阶段、约体验课（不用会员卡占团课名额、到店记为已体验）、我的待跟进、未跟进回收天数与来源设置；购卡后自动成交；体验课报名页（无需登录）与会员的推荐链接；转介绍奖励（设置、列表、发放与撤销）',
    [...contract.leadCalls, ...contract.trialSignupCalls, ...contract.referralRewardCalls],
  ],
  [
    '个人信息',
    '会员查看和下载门店保存的个人信息、同意与撤回（个人信息保护说明、营销消息、健康信息）、申请删除账号；店长处理删除申请（抹去姓名和手机号，保留须保存的记录）；前台和老师看到的手机号中间四位隐藏，前台查看完整号码记入操作日志',
    contract.privacyCalls,
  ],
  [
    '营销短信',
    '店长给同意接收营销短信的会员和潜客发短信（预览人数与因未同意排除的人数，每个手机号一条，末尾由服务器加上退订链接和“回T退订”）、营销短信模板与上行短信回调地址；退订链接页（无需登录）',
    contract.marketingCalls,
  ],
  [
    '健康声明',
    '店长设置健康声明的问题和上课前是否须填写；会员同意后在手机上填写；课程里有回答「是」的会员显示健康提示，具体回答只给店长和会员的上课老师看（须会员允许）',
    contract.healthCalls,
  ],
  [
    '电子合同',
    '店长编辑合同模板（可插入门店、会员、卡种、金额、有效期、请假、转让、退款、冷静期等字段），改动生成新版本；每次售卡（前台或线上，导入除外）按当时在用的版本生成这张卡的合同',
    contract.contractCalls,
  ],
  [
    '会员端',
    '会员在手机上：验证码登录、课表、预约与取消、候补、我的预约和会员卡、扫码签到；前台的登录码与签到码',
    contract.memberChannelCalls,
  ],
];
const OTHER_GROUP = '其他';

const DESCRIPTION = `团课工作室后台的全部接口，由共享的 zod 契约生成。

- 所有接口都是 **POST**，请求体为 JSON（\`save/store/funcs\` 也接受表单编码），应答总是 \`{code, data, msg}\`：\`code\` 为 0 表示成功；失败时 \`code\` 等于 HTTP 状态码，\`msg\` 是可直接展示给员工的中文提示。
- 登录：先调用 \`/api/auth/login\`，之后的请求带上会话 Cookie。门店接口作用于员工所属的第一个门店，或请求头 \`X-Store-Id\`（也可在请求体 \`storeId\`）指定的门店。
- 格式：日期 \`YYYY-MM-DD\`，时间 \`HH:mm\`，日期时间 \`YYYY-MM-DD HH:mm:ss\`，均为门店时区；金额单位为分；可选引用（\`areaId\`、\`bookId\`）可省略、为 \`null\` 或 0。
- 每个接口列出它可能返回的错误码和中文提示；提示中的 \`{…}\` 在运行时填入具体内容（时间、会员姓名、原因等）。没有专门提示的字段错误使用通用提示（缺少「{字段}」、「{字段}」类型不正确等），也列在每个接口的 400 中。`;

const STATUS_TEXT: Record<number, string> = {
  400: '请求不正确',
  401: '未登录或登录失败',
  403: '无权访问该门店',
  404: '要操作的对象不存在',
  408: '请求超时',
  409: '业务规则拒绝',
  413: '请求内容过大',
  415: '请求格式不支持',
  429: '尝试次数过多',
  503: '数据库暂时不可用',
};

type JsonSchema = Record<string, unknown>;

/** The export name of each call in the contract: the operationId. */
function callNames(): Map<CallDef, string> {
  const names = new Map<CallDef, string>();
  for (const [name, value] of Object.entries(contract)) {
    if (allCalls.includes(value as CallDef)) names.set(value as CallDef, name);
  }
  return names;
}

/** Rewrites the `$ref`s of a generated schema (to itself, to its $defs) so that they point into components.schemas. */
function rewriteRefs(node: unknown, self: string): unknown {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, self));
  if (!node || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string') {
      out[k] = v === '#' ? ref(self) : v.startsWith('#/$defs/') ? ref(defName(self, v.slice('#/$defs/'.length))) : v;
    } else out[k] = rewriteRefs(v, self);
  }
  return out;
}

/** components.schemas name of a $defs entry of schema `self` (zod names them `__schema0`, ...). */
const defName = (self: string, key: string) => `${self}_${key.replace(/^_+/, '')}`;
const ref = (name: string) => `#/components/schemas/${name}`;

/** A zod schema as JSON Schema 2020-12 under components.schemas[name] (its $defs beside it). */
function addSchema(schemas: Record<string, JsonSchema>, name: string, schema: z.ZodType, io: 'input' | 'output'): void {
  const generated = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  const { $schema: _dialect, $defs, ...body } = generated;
  for (const [key, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
    schemas[defName(name, key)] = rewriteRefs(def, name) as JsonSchema;
  }
  schemas[name] = rewriteRefs(body, name) as JsonSchema;
}

function errorResponses(errors: readonly CallError[]) {
  const byStatus = new Map<number, string[]>();
  for (const e of errors) byStatus.set(e.status, [...(byStatus.get(e.status) ?? []), e.msg]);
  const responses: Record<string, unknown> = {};
  for (const [status, msgs] of byStatus) {
    responses[String(status)] = {
      description: `${STATUS_TEXT[status] ?? '失败'}，msg 为以下之一：\n\n${msgs.map((m) => `- ${m}`).join('\n')}`,
      content: {
        'application/json': {
          schema: { $ref: ref('ErrorEnvelope') },
          example: { code: status, data: null, msg: msgs[0] },
        },
      },
    };
  }
  return responses;
}

function authText(call: CallDef): string {
  if (call.auth === 'public') return '无需登录。';
  if (call.auth === 'staff') return '需要员工登录（会话 Cookie）。';
  if (call.auth === 'member') return '需要会员登录（会员会话 Cookie，由 /member/api/auth/login 设置；员工会话无效）。';
  return '需要员工登录（会话 Cookie），作用于当前门店（请求头 X-Store-Id 可指定）。';
}

export interface OpenApiOptions {
  /** Name of the staff session cookie (`sid`, or `__Host-sid` behind HTTPS). */
  cookieName: string;
  /** Name of the member session cookie (`msid`, or `__Host-msid`). */
  memberCookieName: string;
}

/** Builds the OpenAPI 3.1 document of every call of the contract. */
export function buildOpenApi(opts: OpenApiOptions): Record<string, unknown> {
  const names = callNames();
  const groupOf = new Map<CallDef, string>();
  for (const [tag, , calls] of GROUPS) for (const call of calls) groupOf.set(call, tag);
  const schemas: Record<string, JsonSchema> = {
    ErrorEnvelope: {
      type: 'object',
      description: '失败的应答：code 等于 HTTP 状态码，msg 为中文提示，data 通常为 null（个别错误带补充信息）。',
      properties: { code: { type: 'integer' }, data: {}, msg: { type: 'string' } },
      required: ['code', 'data', 'msg'],
    },
  };
  const paths: Record<string, unknown> = {};
  for (const call of allCalls) {
    const name = names.get(call) ?? call.path.replace(/^\//, '').replace(/\W+/g, '_');
    addSchema(schemas, `${name}Request`, call.req, 'input');
    addSchema(schemas, `${name}Answer`, call.res, 'output');
    const errors = callErrors(call);
    const body: Record<string, unknown> = {
      'application/json': {
        schema: { $ref: ref(`${name}Request`) },
        ...(call.example ? { example: call.example } : {}),
      },
    };
    if (call.form) body['application/x-www-form-urlencoded'] = { schema: { type: 'object' } };
    paths[call.path] = {
      post: {
        operationId: name,
        tags: [groupOf.get(call) ?? OTHER_GROUP],
        summary: call.summary ?? call.path,
        description: authText(call),
        security: call.auth === 'public' ? [] : call.auth === 'member' ? [{ memberCookie: [] }] : [{ staffCookie: [] }],
        ...(call.auth === 'store'
          ? {
              parameters: [
                {
                  name: 'X-Store-Id',
                  in: 'header',
                  required: false,
                  description: '要操作的门店 id（默认为员工所属的第一个门店）',
                  schema: { type: 'integer', minimum: 1 },
                },
              ],
            }
          : {}),
        requestBody: { required: true, content: body },
        responses: {
          200: {
            description: '成功：code 为 0，data 为应答内容',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    code: { const: 0 },
                    data: { $ref: ref(`${name}Answer`) },
                    msg: { type: 'string' },
                  },
                  required: ['code', 'data', 'msg'],
                },
              },
            },
          },
          ...errorResponses(errors),
        },
        'x-errors': errors,
      },
    };
  }
  const used = new Set([...groupOf.values()]);
  const tags = GROUPS.filter(([tag]) => used.has(tag)).map(([tag, description]) => ({ name: tag, description }));
  if (allCalls.some((c) => !groupOf.has(c))) tags.push({ name: OTHER_GROUP, description: '尚未归组的接口' });
  return {
    openapi: '3.1.0',
    info: { title: '团课工作室后台 API', version: '1.0.0', description: DESCRIPTION },
    servers: [{ url: '/' }],
    tags,
    paths,
    components: {
      schemas,
      securitySchemes: {
        staffCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: opts.cookieName,
          description: '员工会话：由 /api/auth/login 设置',
        },
        memberCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: opts.memberCookieName,
          description: '会员会话：由 /member/api/auth/login 设置',
        },
      },
    },
  };
}
