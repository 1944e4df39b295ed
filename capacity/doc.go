// Package capacity is the capacity search: the driver that picks the rate
// of the next open-loop window from the windows measured so far, and the
// judge that says whether a window met the targets. It measures nothing
// and imports nothing of kaeload: the runner measures each window and
// hands the outcome back (see runner's capacity hook).
//
//	s, _ := capacity.New(capacity.Config{From: 1000, Factor: 2, Resolution: 0.05, Max: 1e6})
//	for {
//		rate, phase, ok := s.Next()
//		if !ok {
//			break
//		}
//		pass, why := targets.Judge(measure(rate)) // one window at rate
//		s.Record(pass, why)
//	}
//	res := s.Result() // res.Knee: the highest rate that met the targets
//
// The search steps up geometrically from From by Factor (never above
// Max) while each step meets the targets; at the first step that fails it
// bisects between the last rate that passed and the first that failed
// until they are within Resolution of the lower. Step-up rates only grow,
// the bisection only narrows, and the number of steps is bounded in
// advance (Config.Bound).
package capacity
