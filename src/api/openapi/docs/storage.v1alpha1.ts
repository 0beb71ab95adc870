import { defineDocs } from './define.ts';
import * as s from './shared/storage.ts';

const docs = {
  CSIStorageCapacity: s.CSIStorageCapacity,
  CSIStorageCapacityList: s.CSIStorageCapacityList,
  VolumeAttachment: s.VolumeAttachment,
  VolumeAttachmentList: s.VolumeAttachmentList,
  VolumeAttachmentSource: s.VolumeAttachmentSource,
  VolumeAttachmentSpec: s.VolumeAttachmentSpec,
  VolumeAttachmentStatus: s.VolumeAttachmentStatus,
  VolumeAttributesClass: s.VolumeAttributesClass,
  VolumeAttributesClassList: s.VolumeAttributesClassList,
  VolumeError: s.VolumeError,
};

defineDocs('storage.v1alpha1', docs);
export default docs;
