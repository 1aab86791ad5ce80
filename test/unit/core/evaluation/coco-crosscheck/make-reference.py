"""
Builds a small COCO-shaped dataset and a results file, then scores them with pycocotools (2.0.11).
The numbers it prints are frozen in ../evaluate-pycocotools.test.ts; run it again to check them:

    pip download pycocotools==2.0.11 --no-deps -d /tmp/pcc
    pip install --no-deps --target /tmp/pcc/lib /tmp/pcc/pycocotools-*.whl
    PYTHONPATH=/tmp/pcc/lib python3 make-reference.py        # numpy needed
    npx prettier --write .                                   # the JSON as committed

The dataset (seeded, so the same every run): photos of COCO's sizes, five classes with COCO's ids
and gaps, crowd regions with detections inside them, small/medium/large boxes, scores on a
0.05 grid (ties within and across images), a class with truth but no detection (bottle), a class
with detections but no truth (dog), an image with no truth at all, and duplicates.
"""
import json
import random
import sys
from pathlib import Path

from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

HERE = Path(__file__).parent
CATS = [(1, "person"), (3, "car"), (18, "dog"), (44, "bottle"), (62, "chair")]
SIZES = [(640, 480), (427, 640), (500, 375), (640, 427), (612, 612), (480, 640)]


def make():
    rnd = random.Random(24)
    images, annotations, results = [], [], []
    ann_id = 1000
    for i in range(14):
        w, h = SIZES[i % len(SIZES)]
        image_id = 100000 + 37 * i
        images.append({"id": image_id, "file_name": f"{image_id:012d}.jpg", "width": w, "height": h})
        truth = []
        if i != 9:  # image 9: no truth, only false positives
            for _ in range(rnd.randint(1, 6)):
                cat = rnd.choice([1, 1, 3, 44, 62])
                side = rnd.choice([18, 60, 150, 260])  # small, medium, large (area ranges)
                bw = min(w - 2, side * rnd.uniform(0.6, 1.4))
                bh = min(h - 2, side * rnd.uniform(0.6, 1.4))
                x, y = rnd.uniform(0, w - bw), rnd.uniform(0, h - bh)
                truth.append((cat, [x, y, bw, bh], 0))
            if i % 4 == 1:  # a crowd region
                bw, bh = w * 0.45, h * 0.4
                truth.append((rnd.choice([1, 3]), [w * 0.3, h * 0.35, bw, bh], 1))
        for cat, box, crowd in truth:
            ann_id += 1
            x, y, bw, bh = (round(v, 2) for v in box)
            annotations.append(
                {
                    "id": ann_id,
                    "image_id": image_id,
                    "category_id": cat,
                    "bbox": [x, y, bw, bh],
                    "area": round(bw * bh * 0.7, 2),
                    "iscrowd": crowd,
                    "segmentation": [[x, y, x + bw, y, x + bw, y + bh, x, y + bh]],
                }
            )
        dets = []
        for cat, (x, y, bw, bh), crowd in truth:
            if cat == 44:
                continue  # bottles are never found
            copies = rnd.choice([0, 1, 1, 1, 2]) if not crowd else 3
            for _ in range(copies):
                if crowd:  # people inside the crowd region
                    dw, dh = bw * rnd.uniform(0.15, 0.3), bh * rnd.uniform(0.3, 0.6)
                    dx, dy = x + rnd.uniform(0, bw - dw), y + rnd.uniform(0, bh - dh)
                    dets.append((cat, [dx, dy, dw, dh]))
                    continue
                j = rnd.choice([0.03, 0.1, 0.2, 0.35])
                jx = lambda s: rnd.uniform(-j, j) * s
                dets.append((cat if rnd.random() > 0.15 else 18, [x + jx(bw), y + jx(bh), bw + jx(bw), bh + jx(bh)]))
        for _ in range(rnd.randint(0, 3)):  # strays
            dw, dh = rnd.uniform(20, 200), rnd.uniform(20, 200)
            dets.append((rnd.choice([1, 3, 18, 62]), [rnd.uniform(0, w - dw), rnd.uniform(0, h - dh), dw, dh]))
        for cat, (x, y, bw, bh) in dets:
            x, y = max(0.0, x), max(0.0, y)
            bw, bh = min(bw, w - x), min(bh, h - y)
            score = round(rnd.randint(1, 20) * 0.05, 2)
            results.append({"image_id": image_id, "category_id": cat, "bbox": [round(x, 2), round(y, 2), round(bw, 2), round(bh, 2)], "score": score})
    gt = {
        "info": {"description": "LabelDesk cross-check", "year": 2026},
        "licenses": [],
        "images": images,
        "annotations": annotations,
        "categories": [{"id": c, "name": n, "supercategory": n} for c, n in CATS],
    }
    return gt, results


def make_areas():
    """Boxes near the area ranges' bounds (32² and 96² pixels), truth whose `area` field is not its
    box's (0.4, 0.7 or 1.0 of it: a box medium by its size can be small by its area), and 12 to 16
    boxes of a class per image, so that AR at 10 boxes differs from AR at 100."""
    rnd = random.Random(2424)
    images, annotations, results = [], [], []
    ann_id = 5000
    for i in range(10):
        w, h = 640, 480
        image_id = 7 + 11 * i
        images.append({"id": image_id, "file_name": f"areas-{image_id:04d}.jpg", "width": w, "height": h})
        truth = []
        for _ in range(rnd.randint(12, 16)):
            cat = rnd.choice([1, 1, 3])
            side = rnd.choice([rnd.uniform(22, 42), rnd.uniform(80, 112)])
            bw, bh = side * rnd.uniform(0.8, 1.25), side * rnd.uniform(0.8, 1.25)
            x, y = rnd.uniform(0, w - bw), rnd.uniform(0, h - bh)
            truth.append((cat, [x, y, bw, bh], rnd.choice([0.4, 0.7, 1.0])))
        dets = []
        for cat, (x, y, bw, bh), _ in truth:
            for _ in range(rnd.choice([0, 1, 1, 2])):
                j = rnd.choice([0.03, 0.12, 0.25])
                jx = lambda s: rnd.uniform(-j, j) * s
                dets.append((cat, [x + jx(bw), y + jx(bh), bw * rnd.uniform(0.75, 1.3), bh * rnd.uniform(0.75, 1.3)]))
        for _ in range(rnd.randint(1, 4)):  # strays of every size
            side = rnd.choice([20, 40, 90, 150])
            dets.append((rnd.choice([1, 3]), [rnd.uniform(0, w - side), rnd.uniform(0, h - side), side, side]))
        for cat, box, f in truth:
            ann_id += 1
            x, y, bw, bh = (round(v, 2) for v in box)
            annotations.append({"id": ann_id, "image_id": image_id, "category_id": cat, "bbox": [x, y, bw, bh], "area": round(bw * bh * f, 2), "iscrowd": 0})
        for cat, (x, y, bw, bh) in dets:
            x, y = max(0.0, x), max(0.0, y)
            bw, bh = min(bw, w - x), min(bh, h - y)
            score = round(rnd.randint(1, 20) * 0.05, 2)
            results.append({"image_id": image_id, "category_id": cat, "bbox": [round(x, 2), round(y, 2), round(bw, 2), round(bh, 2)], "score": score})
    gt = {"images": images, "annotations": annotations, "categories": [{"id": 1, "name": "person"}, {"id": 3, "name": "car"}]}
    return gt, results


def main():
    gt, results = make()
    (HERE / "instances.json").write_text(json.dumps(gt, indent=1) + "\n")
    (HERE / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    gt, results = make_areas()
    (HERE / "instances-areas.json").write_text(json.dumps(gt, indent=1) + "\n")
    (HERE / "results-areas.json").write_text(json.dumps(results, indent=1) + "\n")
    out = {"main": score("instances.json", "results.json"), "areas": score("instances-areas.json", "results-areas.json")}
    json.dump(out, sys.stdout, indent=1)
    print()


def score(instances, results):
    coco = COCO(str(HERE / instances))
    dt = coco.loadRes(str(HERE / results))
    ev = COCOeval(coco, dt, "bbox")
    ev.evaluate()
    ev.accumulate()
    ev.summarize()
    precision = ev.eval["precision"]  # [T, R, K, A, M]; area "all" is 0, maxDets 100 is 2
    out = {"map": float(ev.stats[0]), "map50": float(ev.stats[1]), "stats": [float(v) for v in ev.stats], "classes": {}}
    for k, cat in enumerate(ev.params.catIds):
        name = coco.cats[cat]["name"]
        p = precision[:, :, k, 0, 2]
        ap = float(p[p > -1].mean()) if (p > -1).any() else -1.0
        p50 = precision[0, :, k, 0, 2]
        ap50 = float(p50[p50 > -1].mean()) if (p50 > -1).any() else -1.0
        # Counts at IoU 0.5 from COCOeval's own per-image matches (area "all", 100 detections).
        tp = fp = truth = 0
        for e in ev.evalImgs:
            if e is None or e["category_id"] != cat or e["aRng"] != [0, 1e10] or e["maxDet"] != 100:
                continue
            truth += int(sum(1 for g in e["gtIgnore"] if not g))
            for m, ig in zip(e["dtMatches"][0], e["dtIgnore"][0]):
                if ig:
                    continue
                if m > 0:
                    tp += 1
                else:
                    fp += 1
        out["classes"][name] = {"tp": tp, "fp": fp, "fn": truth - tp, "ap50": ap50, "ap": ap}
        # Per area range (small, medium, large): AP at maxDets 100, and AR at maxDets 1, 10, 100.
        for a, rng in enumerate(ev.params.areaRngLbl):
            p = precision[:, :, k, a, 2]
            r = ev.eval["recall"][:, k, a, :]  # [T, M]
            out["classes"][name][rng] = {
                "ap": float(p[p > -1].mean()) if (p > -1).any() else -1.0,
                "ar": [float(r[:, m][r[:, m] > -1].mean()) if (r[:, m] > -1).any() else -1.0 for m in range(3)],
            }
    return out


main()
