import type { LocalizedText, ProgrammeDay } from "./schema";

const L = (en: string, zh: string, fr: string): LocalizedText => ({ en, zh, fr });

const day = (n: number, title: LocalizedText, details: LocalizedText): ProgrammeDay => ({
  day: n,
  title,
  details,
});

/**
 * The demo cohorts' day-by-day programme (docs/product/portals.md#cohort-pages), in en, zh and fr. It
 * follows the public /program page (src/shared/i18n/locales/*\/program.json): week 1 foundations
 * and discovery, week 2 practice and the pitch, classes in the four academic areas, company and
 * cultural visits, a free weekend day, the pitch to a jury, the certificate (6 ECTS) and farewell.
 * Fourteen days, day 1 being the start date; admins edit it per school on /admin/summer-schools/{id}.
 */
export const DEMO_PROGRAMME: ProgrammeDay[] = [
  day(
    1,
    L("Arrival and welcome evening", "抵达与欢迎晚会", "Arrivée et soirée d’accueil"),
    L(
      "Check in at your residence and collect your welcome pack at the welcome desk. At 18:00 the team welcomes the cohort with an informal dinner.",
      "入住住处，并在接待处领取欢迎礼包。18:00 团队为全班举办非正式欢迎晚餐。",
      "Installez-vous dans votre résidence et récupérez votre pochette d’accueil au bureau d’accueil. À 18 h, l’équipe accueille la session autour d’un dîner informel.",
    ),
  ),
  day(
    2,
    L("Opening session and walking tour", "开幕式与城市徒步导览", "Séance d’ouverture et visite à pied"),
    L(
      "Morning: opening session, introductions and how the two weeks work. Afternoon: a guided walk through the historic centre of The Hague.",
      "上午：开幕式、相互介绍以及两周安排说明。下午：海牙历史中心导览徒步。",
      "Matin : séance d’ouverture, présentations et déroulement des deux semaines. Après-midi : promenade guidée dans le centre historique de La Haye.",
    ),
  ),
  day(
    3,
    L("Global politics", "全球政治", "Politique mondiale"),
    L(
      "Class on international institutions and international law, then a case study in small groups on how the rules of the international order affect countries and companies.",
      "国际机构与国际法课程，随后以小组形式进行案例研究：国际秩序的规则如何影响国家和企业。",
      "Cours sur les institutions internationales et le droit international, puis étude de cas en petits groupes : ce que les règles de l’ordre international changent pour les pays et les entreprises.",
    ),
  ),
  day(
    4,
    L("Cross-border business", "跨境商务", "Commerce transfrontalier"),
    L(
      "Market entry strategies and international supply chains, with Europe and the Netherlands as a case. Afternoon: first company visit.",
      "市场进入策略与国际供应链，以欧洲和荷兰为案例。下午：第一次企业参访。",
      "Stratégies d’entrée sur un marché et chaînes d’approvisionnement internationales, avec l’Europe et les Pays-Bas comme cas. Après-midi : première visite d’entreprise.",
    ),
  ),
  day(
    5,
    L("Cross-cultural communication", "跨文化沟通", "Communication interculturelle"),
    L(
      "Cultural differences at work, giving feedback and negotiating across cultures. Teams are formed and choose their pitch challenge.",
      "职场中的文化差异、跨文化反馈与谈判。组建团队并选择路演课题。",
      "Différences culturelles au travail, donner un retour et négocier entre cultures. Les équipes se forment et choisissent leur défi de pitch.",
    ),
  ),
  day(
    6,
    L("Sustainable development", "可持续发展", "Développement durable"),
    L(
      "The Sustainable Development Goals in business, circular economy and climate adaptation, with Dutch examples. Afternoon: cultural visit to a museum.",
      "企业中的可持续发展目标、循环经济与气候适应，结合荷兰案例。下午：参观博物馆。",
      "Les objectifs de développement durable dans l’entreprise, économie circulaire et adaptation au climat, avec des exemples néerlandais. Après-midi : visite d’un musée.",
    ),
  ),
  day(
    7,
    L("Free day", "自由活动日", "Journée libre"),
    L(
      "Explore The Hague at your own pace, or join the group to the beach at Scheveningen.",
      "按自己的节奏探索海牙，或随团前往斯海弗宁恩（Scheveningen）海滩。",
      "Découvrez La Haye à votre rythme, ou rejoignez le groupe à la plage de Scheveningen.",
    ),
  ),
  day(
    8,
    L("Diplomacy and negotiation", "外交与谈判", "Diplomatie et négociation"),
    L(
      "A negotiation simulation in international teams, followed by a debrief with your teachers.",
      "以国际团队进行谈判模拟，随后与老师一起复盘。",
      "Une simulation de négociation en équipes internationales, suivie d’un débriefing avec vos enseignant·es.",
    ),
  ),
  day(
    9,
    L("Company visit and team work", "企业参访与团队合作", "Visite d’entreprise et travail d’équipe"),
    L(
      "Visit to an organisation that works across borders and a talk with its professionals. Afternoon: research for your pitch with your team.",
      "参访一家跨国运营的机构并与其专业人士交流。下午：与团队一起为路演做调研。",
      "Visite d’une organisation qui travaille à l’international et échange avec ses professionnels. Après-midi : recherches pour votre pitch avec votre équipe.",
    ),
  ),
  day(
    10,
    L("Professional development workshop", "职业发展工作坊", "Atelier de développement professionnel"),
    L(
      "Presenting with confidence, your CV and your online profile for an international career.",
      "自信地进行演讲，完善面向国际职业的简历和网络个人资料。",
      "Présenter avec assurance, votre CV et votre profil en ligne pour une carrière internationale.",
    ),
  ),
  day(
    11,
    L(
      "Responsible leadership and case studies",
      "负责任的领导力与案例研究",
      "Leadership responsable et études de cas",
    ),
    L(
      "Advanced session connecting the four academic areas, then team coaching on your business case.",
      "贯通四个学术领域的进阶课程，随后针对您的商业方案进行团队辅导。",
      "Séance avancée qui relie les quatre domaines, puis coaching d’équipe sur votre business case.",
    ),
  ),
  day(
    12,
    L("Pitch preparation", "路演准备", "Préparation du pitch"),
    L(
      "Team coaching and a rehearsal of your pitch with feedback from teachers and classmates.",
      "团队辅导，并在老师和同学的反馈下进行路演彩排。",
      "Coaching d’équipe et répétition de votre pitch, avec les retours des enseignant·es et des autres participant·es.",
    ),
  ),
  day(
    13,
    L(
      "Pitch to the jury and certificate ceremony",
      "面向评委的路演与结业典礼",
      "Pitch devant le jury et remise des certificats",
    ),
    L(
      "Each team presents to a jury of professionals and answers their questions. In the evening: the certificate ceremony (6 ECTS) and farewell dinner.",
      "各团队向专业评委进行路演并回答提问。晚上：结业典礼（6 个 ECTS 学分）和告别晚宴。",
      "Chaque équipe présente devant un jury de professionnel·les et répond à ses questions. Le soir : remise des certificats (6 ECTS) et dîner d’adieu.",
    ),
  ),
  day(
    14,
    L("Departure", "离开", "Départ"),
    L(
      "Check out of your residence by 11:00. Safe travels, and welcome to the alumni network.",
      "请在 11:00 前退房。祝您旅途平安，欢迎加入校友网络。",
      "Libérez votre chambre avant 11 h. Bon retour, et bienvenue dans le réseau des ancien·nes.",
    ),
  ),
];

/** What to bring, one item per line (demo cohorts). */
export const DEMO_WHAT_TO_BRING = L(
  [
    "Your passport (and your visa, if you need one)",
    "Proof of your travel and health insurance",
    "A bank card that works abroad",
    "A laptop for classes and team work",
    "Smart casual clothes for company visits and the pitch",
    "A rain jacket and comfortable shoes",
    "A power adapter for European sockets (type C/F)",
    "Your medicines, with a prescription in English",
  ].join("\n"),
  [
    "护照（如需签证，请携带签证）",
    "申根旅行医疗保险证明",
    "可在境外使用的银行卡",
    "用于上课和团队合作的笔记本电脑",
    "参访企业和路演时穿着的商务休闲服装",
    "雨衣和舒适的鞋子",
    "欧洲插座转换插头（C/F 型）",
    "您的常用药品及英文处方",
  ].join("\n"),
  [
    "Votre passeport (et votre visa, si vous en avez besoin)",
    "Le justificatif de votre assurance voyage et santé",
    "Une carte bancaire utilisable à l’étranger",
    "Un ordinateur portable pour les cours et le travail d’équipe",
    "Une tenue correcte pour les visites d’entreprises et le pitch",
    "Un imperméable et des chaussures confortables",
    "Un adaptateur pour les prises européennes (type C/F)",
    "Vos médicaments, avec une ordonnance en anglais",
  ].join("\n"),
);

/** Where to go on arrival (demo cohorts). */
export const DEMO_ARRIVAL_INFO = L(
  "The welcome desk is open from 10:00 to 20:00 on arrival day. Show your passport there to receive your keys and welcome pack. From Amsterdam Schiphol, a direct train takes you to Den Haag Centraal in about 30 minutes; from there it is a short tram ride.",
  "抵达当天接待处开放时间为 10:00 至 20:00。请出示护照领取钥匙和欢迎礼包。从阿姆斯特丹史基浦机场乘直达火车约 30 分钟即可到达海牙中央车站（Den Haag Centraal），再换乘电车即可。",
  "Le bureau d’accueil est ouvert de 10 h à 20 h le jour de l’arrivée. Présentez-y votre passeport pour recevoir vos clés et votre pochette d’accueil. Depuis Amsterdam-Schiphol, un train direct vous amène à Den Haag Centraal en 30 minutes environ, puis un court trajet en tram.",
);

export const DEMO_ARRIVAL_ADDRESS = "Laan van Meerdervoort 12, 2517 AJ Den Haag";
export const DEMO_HOUSING_ADDRESS = "Laan van Meerdervoort 12, 2517 AJ Den Haag";
