import { BIG_TYPE_COUNT, BIG_TYPE_MONEY, CARD_TYPE_EXPIRES, CARD_TYPE_NO_EXPIRY } from '@studio/contract';

/** The demo studio's fixed reference data (the random parts are in demo-plan.ts). */
export const DEMO_VENUES = [
  { name: '一号馆（万达店）', rooms: ['瑜伽室', '普拉提室', '单车房'] },
  { name: '二号馆（滨江店）', rooms: ['操课大厅', '儿童活动室'] },
] as const;
export type RoomName = (typeof DEMO_VENUES)[number]['rooms'][number];

export const DEMO_TEACHERS = [
  {
    name: '林悦',
    mobile: '13761203345',
    meetingType: 1,
    meetingCode: '865 203 117',
    joinUrl: 'https://meeting.tencent.com/dm/865203117',
  },
  { name: '陈浩', mobile: '13916627780' },
  { name: '王珊珊', mobile: '15821036692' },
  { name: '张磊', mobile: '18616723309' },
  { name: '刘思琪', mobile: '13585120476' },
] as const;
export type TeacherName = (typeof DEMO_TEACHERS)[number]['name'];

export type CourseName = '瑜伽' | '普拉提' | '动感单车' | '搏击操' | '少儿体适能' | '女子塑形' | 'HIIT' | '拉伸放松';
export type ProductName = '10次卡' | '20次卡' | '1000元储值卡';
export type BookName = '瑜伽基础教程' | '普拉提核心训练';

export interface DemoCourse {
  name: CourseName;
  count: number;
  duration: number;
  color: string;
  genderLimit: number;
  ageLimit: number;
  syear: number | null;
  smonth: number | null;
  eyear: number | null;
  emonth: number | null;
  description: string;
  rooms: RoomName[];
  teachers: TeacherName[];
  book: BookName | null;
  /** 少儿课程: the receipt has a line for a parent's signature. */
  forChildren?: boolean;
}

const adult = { genderLimit: 2, ageLimit: 0, syear: null, smonth: null, eyear: null, emonth: null };

export const DEMO_COURSES: DemoCourse[] = [
  {
    name: '瑜伽',
    count: 15,
    duration: 60,
    color: '#52c41a',
    ...adult,
    description: '哈他瑜伽基础，调息与体式，适合零基础。',
    rooms: ['瑜伽室'],
    teachers: ['林悦', '王珊珊'],
    book: '瑜伽基础教程',
  },
  {
    name: '普拉提',
    count: 10,
    duration: 55,
    color: '#13c2c2',
    ...adult,
    description: '垫上普拉提，强化核心与体态。',
    rooms: ['普拉提室'],
    teachers: ['王珊珊', '林悦'],
    book: '普拉提核心训练',
  },
  {
    name: '动感单车',
    count: 20,
    duration: 45,
    color: '#fa541c',
    ...adult,
    description: '跟随音乐节奏骑行，高效燃脂。',
    rooms: ['单车房'],
    teachers: ['陈浩', '张磊'],
    book: null,
  },
  {
    name: '搏击操',
    count: 18,
    duration: 50,
    color: '#f5222d',
    ...adult,
    description: '融合拳击与踢腿动作的有氧操课。',
    rooms: ['操课大厅'],
    teachers: ['张磊', '陈浩'],
    book: null,
  },
  {
    name: '少儿体适能',
    count: 12,
    duration: 40,
    color: '#faad14',
    genderLimit: 2,
    ageLimit: 1,
    syear: 4,
    smonth: 0,
    eyear: 12,
    emonth: 0,
    description: '4至12岁儿童的协调、平衡与力量游戏课。',
    rooms: ['儿童活动室'],
    teachers: ['刘思琪', '张磊'],
    book: null,
    forChildren: true,
  },
  {
    name: '女子塑形',
    count: 14,
    duration: 65,
    color: '#eb2f96',
    genderLimit: 0,
    ageLimit: 0,
    syear: null,
    smonth: null,
    eyear: null,
    emonth: null,
    description: '仅限女士，臀腿与肩背塑形训练。',
    rooms: ['操课大厅', '瑜伽室'],
    teachers: ['刘思琪', '王珊珊'],
    book: null,
  },
  {
    name: 'HIIT',
    count: 16,
    duration: 30,
    color: '#722ed1',
    ...adult,
    description: '高强度间歇训练，短时高效。',
    rooms: ['操课大厅'],
    teachers: ['陈浩', '张磊'],
    book: null,
  },
  {
    name: '拉伸放松',
    count: 25,
    duration: 35,
    color: '#2f54eb',
    ...adult,
    description: '泡沫轴与静态拉伸，缓解肌肉紧张。',
    rooms: ['瑜伽室', '普拉提室'],
    teachers: ['林悦', '刘思琪'],
    book: null,
  },
];

export interface DemoProduct {
  cardName: ProductName;
  bigType: number;
  cardType: number;
  perCount: number;
  price: number;
  /** Balance a member card of this product is issued with (count, or fen). */
  total: number;
  /** Days a card stays valid after issue (null: never expires). */
  validDays: number | null;
  courses: CourseName[];
}

const ADULT_COURSES: CourseName[] = ['瑜伽', '普拉提', '动感单车', '搏击操', '女子塑形', 'HIIT', '拉伸放松'];

export const DEMO_PRODUCTS: DemoProduct[] = [
  {
    cardName: '10次卡',
    bigType: BIG_TYPE_COUNT,
    cardType: CARD_TYPE_EXPIRES,
    perCount: 1,
    price: 880_00,
    total: 10,
    validDays: 90,
    courses: ADULT_COURSES,
  },
  {
    cardName: '20次卡',
    bigType: BIG_TYPE_COUNT,
    cardType: CARD_TYPE_NO_EXPIRY,
    perCount: 1,
    price: 1580_00,
    total: 20,
    validDays: null,
    courses: [...ADULT_COURSES, '少儿体适能'],
  },
  {
    cardName: '1000元储值卡',
    bigType: BIG_TYPE_MONEY,
    cardType: CARD_TYPE_EXPIRES,
    perCount: 50_00,
    price: 1000_00,
    total: 1000_00,
    validDays: 365,
    courses: ['动感单车', '搏击操', 'HIIT', '女子塑形', '拉伸放松', '瑜伽'],
  },
];

export const DEMO_BOOKS: { name: BookName; chapters: { name: string; lessons: string[] }[] }[] = [
  {
    name: '瑜伽基础教程',
    chapters: [
      { name: '第一章 呼吸与冥想', lessons: ['第1课 腹式呼吸', '第2课 完全式呼吸'] },
      { name: '第二章 站立体式', lessons: ['第3课 山式', '第4课 树式', '第5课 三角式'] },
    ],
  },
  {
    name: '普拉提核心训练',
    chapters: [
      { name: '第一章 核心激活', lessons: ['第1课 骨盆卷动', '第2课 百次拍击'] },
      { name: '第二章 进阶动作', lessons: ['第3课 单腿伸展', '第4课 天鹅式'] },
    ],
  },
];

export const SURNAMES =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁任沈姚卢'.split('');
export const FEMALE_GIVEN = [
  '雨萱',
  '欣怡',
  '梓涵',
  '诗琪',
  '婷婷',
  '晓燕',
  '丽娟',
  '静怡',
  '佳琪',
  '思雨',
  '美玲',
  '雅婷',
  '慧敏',
  '秀英',
  '晨曦',
  '可欣',
];
export const MALE_GIVEN = [
  '浩然',
  '子轩',
  '宇航',
  '俊杰',
  '志强',
  '建国',
  '文博',
  '明轩',
  '天佑',
  '嘉豪',
  '伟',
  '磊',
  '鹏飞',
  '晓东',
  '睿',
  '博文',
];
export const MOBILE_PREFIXES = ['135', '136', '137', '138', '139', '150', '151', '158', '159', '186', '187', '188'];
export const REMARKS = ['第一次上课', '需要瑜伽垫', '带朋友体验', '膝盖有旧伤', '家长陪同'];

/** Start times of the class slots of a day, by part of the day. */
export const SLOTS: { time: string; courses: CourseName[] }[] = [
  { time: '07:00', courses: ['瑜伽', '动感单车', '拉伸放松'] },
  { time: '09:30', courses: ['瑜伽', '普拉提', '拉伸放松', '女子塑形'] },
  { time: '12:10', courses: ['HIIT', '动感单车', '拉伸放松'] },
  { time: '16:30', courses: ['少儿体适能', '女子塑形', '普拉提'] },
  { time: '18:00', courses: ['搏击操', '动感单车', 'HIIT', '瑜伽'] },
  { time: '19:00', courses: ['普拉提', '女子塑形', '搏击操', '瑜伽'] },
  { time: '20:10', courses: ['动感单车', '拉伸放松', 'HIIT'] },
];
