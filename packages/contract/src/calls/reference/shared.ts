// Schema pieces shared by the reference-data calls (areas, teachers, courses, materials, members, cards).
import { z } from 'zod';
import { zId, zOptId, zText } from '../../common.ts';
import { MAX_LIST_IDS } from '../../constants.ts';

/** Messages of the reference-data rules (the spec gives none for these screens). */
export const RefMsg = {
  areaCycle: '不能把场地移到它自己或它的下级场地之下',
  materialTooDeep: '教材最多三级：教材、章节、课时',
  chooseModule: '请选择模块',
  deductModeStatus: '扣费模式只能是0或1',
  birthdayFuture: '出生日期不能晚于今天',
  expireRequired: '请选择到期日期',
  productDeleted: '该卡种已停用，不能再发卡',
  bigTypeLocked: '已有会员持有该卡种，不能修改卡类别',
  color: '颜色格式应为 #rrggbb',
  courseCount: '上课人数应在0到10000之间',
  duration: '课程时长应在5到600分钟之间',
  ageRange: '年龄限制的起止范围不正确',
  joinUrl: '在线教室链接应以 http:// 或 https:// 开头',
  teacherHasSessions: '该老师还有未上的课程，无法删除',
  cardName: '请输入卡名称',
  memberName: '请输入会员姓名',
  teacherName: '请输入老师姓名',
  courseName: '请输入课程名称',
  areaName: '请输入场地名称',
  materialName: '请输入教材名称',
  topupAmount: '充值数量必须大于0',
} as const;

/** A whole number 0..max (a count or fen) with its label in every message. */
export const zAmount = (label: string, max: number) =>
  z
    .number({ error: `${label}必须是整数` })
    .int(`${label}必须是整数`)
    .min(0, `${label}不能小于0`)
    .max(max, `${label}不能超过${max}`);
export const zIdList = (error: string) => z.array(zId(error)).max(MAX_LIST_IDS).default([]);
/** The acting store named in the payload (optional: the session's store otherwise). */
export const zStoreIdOpt = () => zOptId();
export const zNullableText = (max?: number) =>
  zText(max)
    .nullish()
    .transform((v) => (v ? v : null));
export const zSortOpt = () => z.number().int().min(0).max(100_000).optional();
export const zSort = () => zSortOpt().default(0);
/** A list page of a management screen: page, page size and a search text. */
export const zListPage = () =>
  z.object({
    page: z.number().int().min(1).max(100_000).default(1),
    pageSize: z.number().int().min(1).max(100).default(10),
    param: z.string().trim().max(50).nullish(),
  });
