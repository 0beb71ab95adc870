/** Registers ResourceQuota and LimitRanger (both in src/admission/plugins/resourcequota/). */
import { registerPlugin } from '../plugin-catalog.ts';
import { limitRanger } from './resourcequota/limit-ranger.ts';
import { resourceQuota } from './resourcequota/plugin.ts';

registerPlugin('LimitRanger', limitRanger);
registerPlugin('ResourceQuota', resourceQuota);
